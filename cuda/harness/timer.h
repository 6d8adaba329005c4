// The one GPU timer: warm-up runs, then timed runs with CUDA events around the launches only, and the
// one statistic every GPU table reports (the median, with min and max). The statistic and the default
// warm-up count are set here; a program whose own option chooses the count (`mmsim gpu bmmc
// --warmup`, `mmsim gpu enumeration --warmup`) passes it in a TimingPlan. Plain C++ (no CUDA
// header): the events are held as pointers to CUDA's opaque event type, the launches come in as
// callables.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

struct CUevent_st;  // what cudaEvent_t points to

namespace mmsim::gpu {

/// Untimed runs before the timed ones, where the caller does not choose: the first launches pay for
/// module loading, the first touch of the pages and the cold L2.
inline constexpr int kWarmups = 3;

/// The statistic of repeated samples (times, cycles): the median (the middle pair averaged for an
/// even count), robust to the odd run slowed by a clock change or another process; min and max show
/// the spread.
struct Summary {
  double median = 0, min = 0, max = 0;
  std::size_t count = 0;
};
/// Throws GpuError on no samples.
Summary summarize(std::vector<double> samples);

/// Timed runs of one launch sequence, in milliseconds.
struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int runs = 0;
};

/// What a measurement runs: `warmups` untimed runs, then `runs` timed ones (at least one).
struct TimingPlan {
  int warmups = kWarmups;
  int runs = 20;
};

/// A pair of CUDA events on the default stream. Each run is `before()` (untimed: poisoning the
/// output), then `launch()` between the two events; the warm-ups are the same runs, untimed, and the
/// device is synchronised before the first timed one. Throws GpuError.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  template <typename Before, typename Launch>
  Timing time(const TimingPlan& plan, Before&& before, Launch&& launch) {
    for (int r = 0; r < plan.warmups; ++r) {
      before();
      launch();
    }
    synchronize();
    std::vector<double> ms;
    ms.reserve(plan.runs > 0 ? static_cast<std::size_t>(plan.runs) : 0);
    for (int r = 0; r < plan.runs; ++r) {
      before();
      start();
      launch();
      ms.push_back(stop_ms());
    }
    return timing_of(std::move(ms));
  }

  /// The same without an untimed step.
  template <typename Launch>
  Timing time(const TimingPlan& plan, Launch&& launch) {
    const auto nothing = [] {};
    return time(plan, nothing, launch);
  }

 private:
  void synchronize();
  void start();
  double stop_ms();  ///< records the stop event, waits for it, returns the time since start()
  static Timing timing_of(std::vector<double> ms);

  CUevent_st* start_ = nullptr;
  CUevent_st* stop_ = nullptr;
};

}  // namespace mmsim::gpu
