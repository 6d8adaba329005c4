// The --profile option of predict, validate and table1-bounds: a GPU profile read as the user's
// input, so that a missing or broken file is one line and status 2 naming the option.
#pragma once

#include <stdexcept>
#include <string>

#include "io/input_error.h"
#include "predict/counts_file.h"
#include "predict/gpu_profile.h"

namespace mmsim::cli {

/// A counts file (mmsim validate --counts) read as the user's input, the same way.
inline predict::CountsFile read_counts_option(const std::string& path, const std::string& flag = "--counts") {
  try {
    return predict::CountsFile::read(path);
  } catch (const std::invalid_argument& e) {
    throw InputError(flag + ": " + e.what());
  }
}

inline predict::GpuProfile read_profile_option(const std::string& path, const std::string& flag = "--profile") {
  try {
    return predict::read_profile(path);
  } catch (const std::invalid_argument& e) {
    throw InputError(flag + ": " + e.what());
  }
}

}  // namespace mmsim::cli
