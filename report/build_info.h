// Which mmsim this is: its version, the git commit it was built from and whether the CUDA backend
// was built with it. `mmsim --version` and the Python module print it, so that a number can always
// be traced back to the code that made it.
#pragma once

#include <string>

namespace mmsim::report {

struct BuildInfo {
  const char* version;  ///< the project's version, e.g. "0.1.0"
  const char* commit;   ///< git commit of the source tree at build time, "-dirty" with uncommitted
                        ///< changes; "unknown" when it was not built from a git checkout
  bool cuda;            ///< the CUDA backend (mmsim gpu, mmsim validate) was built
};

/// Filled in at build time (cmake/build_info.cpp.in).
BuildInfo build_info();

/// What `mmsim --version` prints: "mmsim 0.1.0", then the commit and the CUDA backend, one a line.
inline std::string version_text() {
  const BuildInfo b = build_info();
  return std::string("mmsim ") + b.version + "\ncommit: " + b.commit + "\nCUDA backend: " + (b.cuda ? "on" : "off");
}

}  // namespace mmsim::report
