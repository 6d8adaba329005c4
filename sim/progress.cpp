#include "sim/progress.h"

namespace mmsim {

namespace {
ProgressListener& listener() {
  static ProgressListener l;
  return l;
}
}  // namespace

void set_progress_listener(ProgressListener l) { listener() = std::move(l); }

void report_launch(const std::string& kernel, std::uint64_t threads) {
  if (listener()) listener()(kernel, threads);
}

}  // namespace mmsim
