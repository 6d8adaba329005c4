// The Afshani-Sitchinava algorithms and their baselines on the GPU (as-gpu.csv, cuda/sorting/): one
// warp per w x m matrix in its SM's shared memory, step for step as the simulator's DMM program
// (the registry's algorithm of the same name, the GPU's instance 0 input from seed 1). Each CSV
// row gives two measurements:
//   many instances  ms of one launch of `instances` matrices; priced as one launch plus
//                   ceil(instances / k) runs one after another on each of the k SMs' DMMs
//   alone           cycles of instance 0 alone on the GPU (clock64), made ms at the profile's SM
//                   clock; priced by the run's shared-memory time units alone
#include <stdexcept>

#include "predict/validate/csv_rows.h"
#include "predict/validate/family.h"

namespace mmsim::predict::validate {

namespace {

// Measured on both GPUs (as-gpu.md): 50 to 100 cycles per simulated step, where the model prices
// about one.
const char* const kInstructions =
    "the DMM prices memory steps only; every step also runs the warp's instructions between its accesses "
    "(compares, index arithmetic: 50-100 cycles a step measured), which no count sees";

}  // namespace

std::vector<MeasuredRun> read_as(const std::filesystem::path& dir, const Selection& s, const predict::GpuProfile& p) {
  const auto rows =
      read_csv_rows(dir / "as-gpu.csv", {"algorithm", "w", "m", "instances", "ms", "gpu_cycles_alone", "correct"});
  if (p.gpu.sm_clock_khz <= 0) throw std::invalid_argument("the profile gives no SM clock: A-S cycles need one");
  if (s.type != "float") return {};  // 32-bit keys only
  std::vector<MeasuredRun> out;
  for (const CsvRow& r : rows) {
    MeasuredRun m;
    m.source = "as-gpu";
    m.kernel = r.text("algorithm");
    m.type = "float";
    const std::uint64_t w = r.integer("w"), rows_m = r.integer("m"), instances = r.integer("instances");
    if (w != static_cast<std::uint64_t>(p.machine.w)) throw r.error("w must be the profile's w");
    if (instances == 0) throw r.error("instances must be positive");
    m.n = w * rows_m;
    m.algorithm = m.kernel;
    m.params = {{"m", static_cast<std::int64_t>(rows_m)}, {"seed", std::int64_t{1}}};
    m.known_failure = kInstructions;

    MeasuredRun many = m;
    many.family = "A-S, a launch of many";
    many.permutation = std::to_string(instances) + " instances";
    many.ms = r.number("ms");
    many.pricing = Pricing::Waves;
    const auto k = static_cast<std::uint64_t>(p.machine.k);
    many.waves = (instances + k - 1) / k;
    many.measured_as = "ms per launch (events)";

    MeasuredRun alone = m;
    alone.family = "A-S, one alone";
    alone.permutation = "alone";
    alone.ms = r.number("gpu_cycles_alone") / p.gpu.sm_clock_khz;  // kHz: cycles per ms
    alone.pricing = Pricing::SharedOnly;
    alone.measured_as = "cycles (clock64) / SM clock " + std::to_string(p.gpu.sm_clock_khz) + " kHz";
    for (MeasuredRun* x : {&many, &alone})
      if (!(x->ms > 0)) throw r.error("ms and gpu_cycles_alone must be positive");
    out.push_back(std::move(many));
    out.push_back(std::move(alone));
  }
  return out;
}

}  // namespace mmsim::predict::validate
