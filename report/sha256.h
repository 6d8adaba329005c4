// SHA-256 (FIPS 180-4), so that a results manifest can be checked with the standard `sha256sum`.
// A few dozen lines of our own rather than a crypto library: mmsim needs a checksum, not secrecy.
#pragma once

#include <string>
#include <string_view>

namespace mmsim::report {

/// The SHA-256 digest of `data`, as 64 lowercase hexadecimal digits.
std::string sha256_hex(std::string_view data);

/// The SHA-256 digest of a file's bytes, read in pieces; throws std::runtime_error when it cannot
/// be read.
std::string sha256_file_hex(const std::string& path);

}  // namespace mmsim::report
