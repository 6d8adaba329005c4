// Progress of long runs for a person watching a terminal: the CLI installs a listener, the engine
// tells it about every kernel launch. With no listener installed nothing is reported.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace mmsim {

using ProgressListener = std::function<void(const std::string& kernel, std::uint64_t threads)>;

/// Installs (or, with an empty function, removes) the process-wide listener.
void set_progress_listener(ProgressListener listener);
/// Called by the engine at each launch.
void report_launch(const std::string& kernel, std::uint64_t threads);

}  // namespace mmsim
