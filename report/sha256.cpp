#include "report/sha256.h"

#include <array>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace mmsim::report {

namespace {

// FIPS 180-4 Sect. 4.2.2: the first 32 bits of the fractional parts of the cube roots of the
// first 64 primes.
constexpr std::array<std::uint32_t, 64> kRound = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

class Sha256 {
 public:
  void add(const unsigned char* p, std::size_t n) {
    length_ += n;
    for (std::size_t i = 0; i < n; ++i) {
      block_[filled_++] = p[i];
      if (filled_ == 64) compress(), filled_ = 0;
    }
  }
  std::string hex() {
    const std::uint64_t bits = length_ * 8;
    const unsigned char one = 0x80, zero = 0;
    add(&one, 1);
    while (filled_ != 56) add(&zero, 1);
    for (int i = 7; i >= 0; --i) block_[filled_++] = static_cast<unsigned char>(bits >> (8 * i));
    compress();
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (const std::uint32_t h : state_)
      for (int i = 28; i >= 0; i -= 4) out += digits[(h >> i) & 0xf];
    return out;
  }

 private:
  // One 64-byte block (Sect. 6.2.2).
  void compress() {
    std::array<std::uint32_t, 64> m{};
    for (int t = 0; t < 16; ++t)
      m[t] = std::uint32_t{block_[4 * t]} << 24 | std::uint32_t{block_[4 * t + 1]} << 16 |
             std::uint32_t{block_[4 * t + 2]} << 8 | std::uint32_t{block_[4 * t + 3]};
    for (int t = 16; t < 64; ++t) {
      const std::uint32_t s0 = rotr(m[t - 15], 7) ^ rotr(m[t - 15], 18) ^ (m[t - 15] >> 3);
      const std::uint32_t s1 = rotr(m[t - 2], 17) ^ rotr(m[t - 2], 19) ^ (m[t - 2] >> 10);
      m[t] = m[t - 16] + s0 + m[t - 7] + s1;
    }
    auto v = state_;  // a b c d e f g h
    for (int t = 0; t < 64; ++t) {
      const std::uint32_t e1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
      const std::uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
      const std::uint32_t t1 = v[7] + e1 + ch + kRound[t] + m[t];
      const std::uint32_t a1 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
      const std::uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
      for (int i = 7; i > 0; --i) v[i] = v[i - 1];
      v[4] += t1;
      v[0] = t1 + a1 + maj;
    }
    for (int i = 0; i < 8; ++i) state_[i] += v[i];
  }

  // Sect. 5.3.3: the first 32 bits of the fractional parts of the square roots of the first 8 primes.
  std::array<std::uint32_t, 8> state_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<unsigned char, 64> block_{};
  std::size_t filled_ = 0;
  std::uint64_t length_ = 0;
};

}  // namespace

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.add(reinterpret_cast<const unsigned char*>(data.data()), data.size());
  return h.hex();
}

std::string sha256_file_hex(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  Sha256 h;
  std::vector<char> buffer(std::size_t{1} << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    h.add(reinterpret_cast<const unsigned char*>(buffer.data()), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw std::runtime_error("cannot read " + path);
  return h.hex();
}

}  // namespace mmsim::report
