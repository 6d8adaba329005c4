// The Afshani-Sitchinava algorithms and their baselines on the GPU (as-gpu.csv, cuda/sorting/): one
// warp per w x m matrix in its SM's shared memory, step for step as the simulator's DMM program
// (the registry's algorithm of the same name, the GPU's instance 0 input from seed 1). Each CSV
// row gives two measurements:
//   many instances  ms of one launch of `instances` matrices; priced as one launch plus
//                   ceil(instances / k) runs one after another on each of the k SMs' DMMs
//   alone           cycles of instance 0 alone on the GPU (clock64), made ms at the profile's SM
//                   clock; priced by the run's shared-memory time units alone
//
// Where the measured folder also holds the instruction microbenchmarks (instructions.csv, with
// Nsight Compute's counts in instructions-ncu.csv) and the kernels' counted instructions
// (as-ncu.csv), both rows are priced with the instruction term instead (Pricing::Instructions,
// predict/instruction_cost.h): alone, the warp's cycles; many, one launch plus an SM's cycles for
// its ceil(instances / k) warps at once, plus (where the folder has the copy microbenchmarks,
// instructions-copy.csv) their loads and stores of the matrices at the copy term's costs
// (predict/copy_cost.h): the launch's part that the clock64 cycles leave out. The copy term's fixed
// cycles then stand for the launch as well. Selection::instructions names another folder for those
// files: a GPU of the same SM priced with microbenchmarks measured on its sibling.
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include "io/quote.h"
#include "predict/copy_cost.h"
#include "predict/instruction_bench.h"
#include "predict/instruction_cost.h"
#include "predict/microbench.h"
#include "predict/validate/csv_rows.h"
#include "predict/validate/family.h"

namespace mmsim::predict::validate {

namespace {

// Measured on both GPUs (as-gpu.md): 50 to 100 cycles per simulated step, where the model prices
// about one.
const char* const kInstructions =
    "the DMM prices memory steps only; every step also runs the warp's instructions between its accesses "
    "(compares, index arithmetic: 50-100 cycles a step measured), which no count sees";

// The profile's measured cost of an empty launch (its `empty` microbenchmark), or 0.
double empty_launch_ms(const predict::GpuProfile& p) {
  for (const predict::MicrobenchTiming& t : p.timings)
    if (t.bench.kind == predict::MicrobenchKind::Empty) return t.median_ms;
  return 0;
}

// The instruction microbenchmarks of `dir` as samples to fit: a lone bench's cycles as measured, a
// many bench's launch less an empty launch, at the profile's SM clock (as the A-S rows are read).
std::vector<predict::InstructionSample> instruction_samples(const std::filesystem::path& dir,
                                                            const predict::GpuProfile& p) {
  std::map<std::string, double> counted;
  for (const CsvRow& r : read_csv_rows(dir / "instructions-ncu.csv", {"bench", "warp_instructions"}))
    counted[r.text("bench")] = r.number("warp_instructions");
  const double launch_ms = empty_launch_ms(p);
  std::vector<predict::InstructionSample> out;
  for (const CsvRow& r : read_csv_rows(dir / "instructions.csv", {"bench", "kind", "setting", "cycles", "ms",
                                                                  "sim_steps", "sim_extra_slots", "correct"})) {
    if (r.text("correct") != "yes") throw r.error("a microbenchmark whose output was wrong");
    predict::InstructionSample s;
    s.bench = r.text("bench");
    s.kind = r.text("kind");
    s.many = r.text("setting") == "many";
    if (!s.many && r.text("setting") != "lone") throw r.error("setting must be lone or many");
    const auto c = counted.find(s.bench);
    if (c == counted.end()) throw r.error(s.bench + " has no count in instructions-ncu.csv");
    s.warp_instructions = c->second;
    s.steps = r.number("sim_steps");
    s.extra_slots = r.number("sim_extra_slots");
    s.cycles = s.many ? (r.number("ms") - launch_ms) * p.gpu.sm_clock_khz : r.number("cycles");
    out.push_back(std::move(s));
  }
  return out;
}

// (algorithm, m) -> the warp instructions its kernel executes between its clock64 reads: Nsight
// Compute's count of the launch less that of the copy alone of the same m (as-ncu.csv).
std::map<std::pair<std::string, std::uint64_t>, double> counted_instructions(const std::filesystem::path& dir) {
  std::map<std::pair<std::string, std::uint64_t>, double> out;
  for (const CsvRow& r :
       read_csv_rows(dir / "as-ncu.csv", {"algorithm", "m", "ncu_warp_instructions", "copy_warp_instructions"})) {
    if (r.text("ncu_warp_instructions").empty() || r.text("copy_warp_instructions").empty()) continue;
    const double all = r.number("ncu_warp_instructions"), copy = r.number("copy_warp_instructions");
    if (!(all > copy)) throw r.error("the launch's instructions must exceed the copy's");
    out[{r.text("algorithm"), r.integer("m")}] = all - copy;
  }
  return out;
}

}  // namespace

predict::InstructionCosts instruction_costs(const std::filesystem::path& dir, const predict::GpuProfile& p) {
  for (const char* f : {"instructions.csv", "instructions-ncu.csv"})
    if (!std::filesystem::exists(dir / f))
      throw std::invalid_argument(quote((dir / f).string(), 80) +
                                  " is missing (mmsim gpu instructions and cuda/ncu_instructions.sh write it)");
  return predict::fit_instruction_costs(instruction_samples(dir, p));
}

std::optional<predict::InstructionCosts> as_instruction_costs(const std::filesystem::path& dir,
                                                              const predict::GpuProfile& p) {
  for (const char* f : {"instructions.csv", "instructions-ncu.csv", "as-ncu.csv"})
    if (!std::filesystem::exists(dir / f)) return std::nullopt;
  return instruction_costs(dir, p);
}

std::optional<predict::CopyCosts> as_copy_costs(const std::filesystem::path& dir, const predict::GpuProfile& p) {
  if (!std::filesystem::exists(dir / "instructions-copy.csv")) return std::nullopt;
  std::vector<predict::CopySample> samples;
  for (const CsvRow& r :
       read_csv_rows(dir / "instructions-copy.csv", {"bench", "rows", "warps_per_sm", "ms", "correct"})) {
    if (r.text("correct") != "yes") throw r.error("a copy microbenchmark whose output was wrong");
    // The whole launch as one SM's cycles: the fit's fixed cycles hold the launch (copy_cost.h).
    samples.push_back(
        {r.text("bench"), r.number("rows"), r.number("warps_per_sm"), r.number("ms") * p.gpu.sm_clock_khz});
  }
  try {
    return predict::fit_copy_costs(samples);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument((dir / "instructions-copy.csv").string() + ": " + e.what());
  }
}

std::vector<MeasuredRun> read_as(const std::filesystem::path& dir, const Selection& s, const predict::GpuProfile& p) {
  const auto rows = read_csv_rows(
      dir / "as-gpu.csv", {"algorithm", "w", "m", "instances", "ms", "gpu_cycles_alone", "sim_steps", "correct"});
  if (p.gpu.sm_clock_khz <= 0) throw std::invalid_argument("the profile gives no SM clock: A-S cycles need one");
  if (s.type != "float") return {};  // 32-bit keys only
  const std::filesystem::path& from = s.instructions.empty() ? dir : s.instructions;
  const std::optional<predict::InstructionCosts> costs = as_instruction_costs(from, p);
  const auto counted = costs ? counted_instructions(from) : std::map<std::pair<std::string, std::uint64_t>, double>{};
  const std::optional<predict::CopyCosts> copy = costs ? as_copy_costs(from, p) : std::nullopt;
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
    if (const auto c = counted.find({m.kernel, rows_m}); c != counted.end()) {
      InstructionWork work;
      work.costs = *costs;
      work.warp_instructions = c->second;
      work.steps = r.number("sim_steps");
      work.sm_clock_khz = static_cast<double>(p.gpu.sm_clock_khz);
      alone.pricing = Pricing::Instructions;
      alone.work = work;
      many.pricing = Pricing::Instructions;
      many.work = work;
      many.work.many = true;  // ceil(instances / k) warps on each SM at once: one full wave
      many.work.copy = copy;  // each loads its m rows before its work and stores them after
      many.work.rows = static_cast<double>(rows_m);
      for (MeasuredRun* x : {&many, &alone}) x->known_failure.clear();
    }
    out.push_back(std::move(many));
    out.push_back(std::move(alone));
  }
  return out;
}

}  // namespace mmsim::predict::validate
