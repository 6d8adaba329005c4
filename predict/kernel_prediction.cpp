#include "predict/kernel_prediction.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "io/input_error.h"
#include "io/quote.h"
#include "kernels/kernel_report.h"
#include "predict/fit.h"
#include "predict/instruction_cost.h"
#include "predict/simulate.h"

namespace mmsim::predict {

namespace {

// "SOURCE: where: rule", the source quoted as a user's text (control bytes shown as ?).
[[noreturn]] void refuse(const std::string& source, const std::string& where, const std::string& rule) {
  const std::string q = quote(source.empty() ? std::string("kernel") : source, 60);
  throw InputError(q.substr(1, q.size() - 2) + ": " + where + ": " + rule);
}

// The counts of one round: its memory's, and its time units when it is a shared round (the
// shared-memory count a model prices, as counts_of in simulate.cpp sums them).
RunCounts round_counts(const RoundStats& r, const GpuMemoryStats& memory) {
  RunCounts c;
  if (r.memory == Space::Shared && r.time_units) c.shared_time_units = static_cast<std::uint64_t>(*r.time_units);
  c.memory = memory;
  return c;
}

void add(RunCounts& to, const RunCounts& c) {
  to.launches += c.launches;
  to.shared_time_units += c.shared_time_units;
  to.memory += c.memory;
}

double ratio(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

StepPrediction step_of(const RoundStats& r, const GpuMemoryStats& memory, const CostModel& model,
                       std::uint32_t sector_bytes) {
  StepPrediction s;
  s.kernel = r.kernel, s.step = r.name, s.array = r.array, s.memory = r.memory, s.op = r.op;
  s.requests = r.requests, s.warps = r.warps, s.slots = r.slots, s.congestion = r.max_congestion;
  s.counts = round_counts(r, memory);
  if (r.memory == Space::Shared) {
    s.bank_conflicts = r.bank_conflicts;
  } else {
    s.sectors_per_request = ratio(memory.sectors(), memory.accesses);
    // A sampled step's hits are its kept sectors' scaled up, which may pass its sectors (counted
    // whole) in a step of few rows: the rate is at most 1.
    if (memory.sectors() > 0) s.l2_hit_rate = std::min(1.0, ratio(memory.hits, memory.sectors()));
    s.dram_bytes = (memory.dram_reads + memory.dram_writes) * sector_bytes;
  }
  s.ms = predicted_ms(model, s.counts);
  return s;
}

// The program's interval from its kernels' (none where some kernel has none).
void set_interval(ProgramPrediction& p) {
  p.interval_low_ms = p.interval_high_ms = 0;
  for (const KernelPrediction& k : p.kernels)
    if (!(k.interval_factor >= 1)) return;
  for (const KernelPrediction& k : p.kernels) {
    p.interval_low_ms += k.ms / k.interval_factor;
    p.interval_high_ms += k.ms * k.interval_factor;
  }
}

}  // namespace

const CostModel& model_or_input_error(const GpuProfile& profile, const std::string& model) {
  try {
    return profile.model(model.empty() ? profile.default_model() : model);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("--model: ") + e.what());
  }
}

kernels::ProgramSpec on_profile_machine(const GpuProfile& profile, const kernels::ProgramSpec& spec) {
  const MachineParams& gpu = profile.machine;
  if (spec.machine.model != ModelKind::Hmm)
    refuse(
        spec.source, "machine",
        std::string("a GPU prediction runs on the HMM, the GPU's model, not on the ") + to_string(spec.machine.model));
  if (spec.machine.w != gpu.w)
    refuse(spec.source, "machine",
           "w = " + std::to_string(spec.machine.w) +
               ", but the profile's GPU runs warps of w = " + std::to_string(gpu.w) + " threads");
  std::uint64_t shared_bytes = 0;
  for (const kernels::ArraySpec& a : spec.arrays)
    if (a.space == Space::Shared) shared_bytes += a.size * a.element_bytes;
  if (shared_bytes > kMaxGpuSharedBytesPerBlock)
    refuse(spec.source, "arrays",
           "the shared arrays take " + std::to_string(shared_bytes) + " bytes a block, more than the " +
               std::to_string(kMaxGpuSharedBytesPerBlock) + " a CUDA block may have");
  for (const kernels::KernelSpec& k : spec.kernels)
    if (k.threads_per_block > kMaxGpuThreadsPerBlock)
      refuse(spec.source, "kernel " + quote(k.name, 32),
             "threads_per_block = " + std::to_string(k.threads_per_block) + ", more than the " +
                 std::to_string(kMaxGpuThreadsPerBlock) + " threads of a CUDA block");
  kernels::ProgramSpec out = spec;
  out.machine = gpu;
  out.machine.model = ModelKind::Hmm;
  out.machine.extensions = spec.machine.extensions;
  return out;
}

ProgramPrediction predict_program(const GpuProfile& profile, const kernels::ProgramSpec& spec, const std::string& model,
                                  unsigned threads, const std::optional<SamplingOptions>& sampling) {
  kernels::validate(spec);
  const kernels::ProgramSpec on = on_profile_machine(profile, spec);
  kernels::validate(on);
  model_or_input_error(profile, model);  // before simulating
  std::vector<std::size_t> rounds;
  for (const kernels::KernelSpec& k : on.kernels) {
    std::size_t n = 0;
    for (const kernels::StepSpec& s : k.steps)
      n += s.kind == kernels::StepKind::Read || s.kind == kernels::StepKind::Write ||
           s.kind == kernels::StepKind::Atomic;
    rounds.push_back(n);
  }
  ProgramPrediction p = predict_launches(
      profile, spec.source, model,
      [&on](const EngineOptions& options) { return kernels::run_program(on, options).stats; }, rounds, threads,
      sampling);
  price_instructions(p, profile, kernel_work(on));
  return p;
}

std::vector<KernelWork> kernel_work(const kernels::ProgramSpec& spec) {
  std::map<std::string, Space> space;
  for (const kernels::ArraySpec& a : spec.arrays) space[a.name] = a.space;
  std::vector<KernelWork> out;
  for (const kernels::KernelSpec& k : spec.kernels) {
    KernelWork w{.blocks = k.blocks, .threads_per_block = k.threads_per_block};
    for (const kernels::StepSpec& s : k.steps) {
      w.declared += s.instructions;
      if (s.kind == kernels::StepKind::Read || s.kind == kernels::StepKind::Write ||
          s.kind == kernels::StepKind::Atomic) {
        w.memory_steps += 1;
        w.shared_steps += space[s.array] == Space::Shared;
      }
    }
    out.push_back(w);
  }
  return out;
}

void price_instructions(ProgramPrediction& p, const GpuProfile& profile, const std::vector<KernelWork>& work) {
  if (std::none_of(work.begin(), work.end(), [](const KernelWork& w) { return w.declared > 0; })) return;
  if (!profile.instruction_term || profile.gpu.sm_clock_khz <= 0) {
    p.instructions =
        "declared instructions not priced: the profile carries no instruction term (mmsim fit-instructions)";
    return;
  }
  if (p.kernels.size() != work.size())
    throw std::logic_error("price_instructions: the prediction's kernels are not the program's");
  const InstructionTerm& term = *profile.instruction_term;
  const auto w = static_cast<double>(profile.machine.w);
  const auto sms = static_cast<double>(profile.machine.k);
  for (std::size_t i = 0; i < work.size(); ++i) {
    const KernelWork& kw = work[i];
    KernelPrediction& k = p.kernels[i];
    const double instructions = kw.declared + kw.memory_steps;  // a memory step is an instruction too
    const double warps = static_cast<double>(kw.blocks) * std::ceil(kw.threads_per_block / w);
    // A shared step's bank passes beyond one per warp access, per warp of the launch.
    double extra_slots = 0;
    for (const StepPrediction& s : k.steps)
      if (s.memory == Space::Shared) extra_slots += static_cast<double>(s.slots) - static_cast<double>(s.warps);
    extra_slots /= warps;
    const double cycles = sm_cycles(term.costs, instructions, kw.shared_steps, extra_slots, std::ceil(warps / sms));
    const double before = k.ms;
    k.warp_instructions = instructions;
    k.memory_ms = k.ms - k.launch_ms;
    k.instruction_ms = cycles / static_cast<double>(profile.gpu.sm_clock_khz);  // kHz: cycles per ms
    k.ms = k.launch_ms + std::max(k.memory_ms, k.instruction_ms);
    for (StepPrediction& s : k.steps) s.share = k.ms > 0 ? s.ms / k.ms : 0.0;
    p.ms += k.ms - before;
    if (k.interval_factor >= 1)
      k.interval_factor =
          std::max({k.interval_factor, term.costs.lone.interval_factor, term.costs.many.interval_factor});
  }
  set_interval(p);
  p.instructions_priced = true;
  p.instructions = "declared instructions priced by the profile's instruction term, fitted on " + term.fitted_on +
                   "; a kernel takes its launch and the larger of its memory steps and its instructions";
}

ProgramPrediction predict_launches(const GpuProfile& profile, const std::string& source, const std::string& model,
                                   const std::function<RunStats(const EngineOptions&)>& run,
                                   const std::vector<std::size_t>& rounds_per_launch, unsigned threads,
                                   const std::optional<SamplingOptions>& sampling) {
  const CostModel& m = model_or_input_error(profile, model);
  ProgramPrediction p;
  // Arrays declare their element sizes (ArrayDecl::element_bytes); 4 is the memory's default cell.
  WarmRun counted;
  std::vector<double> rounds_ci95;  // each round's ms interval, when sampled
  if (sampling) {
    SampledRun s = run_sampled(profile, 4, run, threads, *sampling);
    counted.counts = s.sampled.counts;
    counted.stats = std::move(s.stats);
    for (const SampledCounts& r : s.rounds) {
      counted.rounds.push_back(r.counts.memory);
      rounds_ci95.push_back(r.half_width_ms(m));
    }
    p.exact = false;
    p.sampling = *sampling;
    p.sampled = std::move(s.sampled);
  } else {
    counted = run_warm(profile, 4, run, threads);
    p.sampled.counts = counted.counts;
  }
  p.ms_ci95 = p.sampled.half_width_ms(m);
  p.source = source;
  p.profile = profile.gpu.name + " (" + profile.device + " profile of " + profile.date + ")";
  p.model = m.name;
  p.counts = counted.counts;
  p.ms = predicted_ms(m, counted.counts);
  p.machine = profile.machine;
  p.sector_bytes = profile.memory.sector_bytes;
  std::size_t next = 0;
  // A model that prices a run's first launch apart (the count "runs") charges it to the first
  // kernel alone: each kernel's counts are those of one launch, and the program is one run.
  const double run_ms = m.price_of("runs");
  for (std::size_t launch = 0; launch < counted.stats.kernels.size(); ++launch) {
    KernelPrediction k;
    k.name = counted.stats.kernels[launch].name;
    k.counts.launches = 1;
    const double not_first = launch > 0 ? run_ms : 0.0;
    k.launch_ms = predicted_ms(m, k.counts) - not_first;
    const std::size_t rounds = launch < rounds_per_launch.size() ? rounds_per_launch[launch] : 0;
    for (std::size_t r = next; r < next + rounds && r < counted.stats.rounds.size(); ++r) {
      k.steps.push_back(step_of(counted.stats.rounds[r], counted.rounds[r], m, p.sector_bytes));
      if (r < rounds_ci95.size()) k.steps.back().ms_ci95 = rounds_ci95[r];
      add(k.counts, k.steps.back().counts);
    }
    next += rounds;
    k.ms = predicted_ms(m, k.counts) - not_first;
    for (StepPrediction& s : k.steps) s.share = k.ms > 0 ? s.ms / k.ms : 0.0;
    if (const HeldOutError* held = profile.choice.of(m.name)) k.interval_factor = held->interval_factor;
    p.kernels.push_back(std::move(k));
  }
  set_interval(p);
  if (next != counted.stats.rounds.size())
    throw std::logic_error("predict_launches: the launches' rounds do not add up to the run's");
  return p;
}

report::Json predictions_json(const GpuProfile& profile, const ProgramPrediction& p) {
  if (!p.instructions_priced) return predictions_json(profile, p.counts);
  RunCounts launch;
  launch.launches = 1;
  report::Json every = report::Json::object();
  for (const CostModel& m : profile.models) {
    const double launch_ms = predicted_ms(m, launch);
    // The run's first launch once (its price is in every kernel's counts of one launch).
    double ms = p.kernels.empty() ? 0 : m.price_of("runs") * (1 - static_cast<double>(p.kernels.size()));
    for (const KernelPrediction& k : p.kernels)
      ms += launch_ms + std::max(predicted_ms(m, k.counts) - launch_ms, k.instruction_ms);
    every.set(m.name, ms);
  }
  return every;
}

std::string interval_words(const ProgramPrediction& p) {
  if (!(p.interval_high_ms > 0)) return "";
  return " (interval " + report::format_number(p.interval_low_ms, 4) + " - " +
         report::format_number(p.interval_high_ms, 4) + " ms)";
}

void set_interval_json(report::Json& out, const ProgramPrediction& p) {
  using report::Json;
  if (p.interval_high_ms > 0) {
    out.set("interval_ms", Json::array().push(p.interval_low_ms).push(p.interval_high_ms));
    out.set("interval_coverage", kIntervalCoverage);
  } else {
    out.set("interval_ms", Json()).set("interval_coverage", Json());
  }
}

report::Table kernels_table(const ProgramPrediction& p) {
  report::Table t;
  t.title = "Predicted GPU time of " + p.source + ": " + report::format_number(p.ms, 4) + " ms" +
            ms_interval_words(p.sampled.shift, p.ms_ci95) + interval_words(p);
  t.header = {
      "profile: " + p.profile, "cost model: " + p.model,
      "machine: " + kernels::machine_text(p.machine) + ", sectors of " + std::to_string(p.sector_bytes) + " bytes",
      "the second of two runs, the first warming the L2" + sampling_words(p.sampled, p.exact)};
  t.columns = {"kernel",  "predicted_ms", "share",       "launch_ms", "l2_transactions",  "sectors",
               "l2_hits", "dram_reads",   "dram_writes", "dram_rows", "shared_time_units"};
  // With the instruction term, what each kernel's memory steps and instructions take apart.
  if (p.instructions_priced)
    t.columns.insert(t.columns.begin() + 4, {"memory_ms", "instruction_ms", "warp_instructions"});
  for (const KernelPrediction& k : p.kernels) {
    const GpuMemoryStats& m = k.counts.memory;
    std::vector<report::Cell> row = {k.name,
                                     k.ms,
                                     p.ms > 0 ? k.ms / p.ms : 0.0,
                                     k.launch_ms,
                                     static_cast<long long>(m.lines),
                                     static_cast<long long>(m.sectors()),
                                     static_cast<long long>(m.hits),
                                     static_cast<long long>(m.dram_reads),
                                     static_cast<long long>(m.dram_writes),
                                     static_cast<long long>(m.activations),
                                     static_cast<long long>(k.counts.shared_time_units)};
    if (p.instructions_priced) row.insert(row.begin() + 4, {k.memory_ms, k.instruction_ms, k.warp_instructions});
    t.add_row(std::move(row));
  }
  if (!p.instructions.empty()) t.notes.push_back(p.instructions + ".");
  return t;
}

report::Table steps_table(const ProgramPrediction& p) {
  report::Table t;
  t.title = "Where the time goes, step by step (" + p.model + ")";
  t.columns = {"kernel",      "step",       "array",        "memory",         "op",
               "requests",    "slots",      "congestion",   "bank_conflicts", "sectors_per_request",
               "l2_hit_rate", "dram_bytes", "predicted_ms", "share"};
  const auto opt = [](const auto& x) { return x ? report::Cell(*x) : report::Cell(); };
  // Sampled with rows left out: each step's ms with its 95 % interval's half width beside it.
  const bool interval = p.sampled.shift > 0;
  if (interval) t.columns.insert(t.columns.end() - 1, "predicted_ms_ci95");
  const auto add = [&](std::vector<report::Cell> row, double ci95) {
    if (interval) row.insert(row.end() - 1, ci95);
    t.add_row(std::move(row));
  };
  for (const KernelPrediction& k : p.kernels) {
    for (const StepPrediction& s : k.steps)
      add({s.kernel, s.step, s.array, std::string(to_string(s.memory)), std::string(to_string(s.op)),
           static_cast<long long>(s.requests), static_cast<long long>(s.slots), static_cast<long long>(s.congestion),
           s.bank_conflicts ? report::Cell(static_cast<long long>(*s.bank_conflicts)) : report::Cell(),
           opt(s.sectors_per_request), opt(s.l2_hit_rate),
           s.memory == Space::Global ? report::Cell(static_cast<long long>(s.dram_bytes)) : report::Cell(), s.ms,
           s.share},
          s.ms_ci95);
    add({k.name,
         std::string("(launch)"),
         {},
         {},
         {},
         {},
         {},
         {},
         {},
         {},
         {},
         {},
         k.launch_ms,
         k.ms > 0 ? k.launch_ms / k.ms : 0.0},
        0.0);
  }
  t.notes = {"share: of the kernel's predicted time; the launch's constant is the (launch) row.",
             "slots: sectors (global) or bank passes (shared); congestion: the most slots one warp took."};
  if (p.sampled.shift > 0)
    t.notes.push_back("l2_hit_rate, dram_bytes and predicted_ms of a global step: its sectors of the sampled 1/" +
                      std::to_string(std::uint64_t{1} << p.sampled.shift) +
                      " of the DRAM rows, scaled; predicted_ms_ci95: half the width of its 95 % interval (--exact "
                      "simulates every sector).");
  return t;
}

report::Json prediction_json(const ProgramPrediction& p) {
  using report::Json;
  Json out = Json::object();
  out.set("source", p.source).set("profile", p.profile).set("model", p.model);
  out.set("machine", kernels::machine_text(p.machine)).set("predicted_ms", p.ms).set("predicted_ms_ci95", p.ms_ci95);
  out.set("sampling", sampling_json(p.sampled, p.exact, p.sampling));
  out.set("counts", counts_json(p.counts)).set("counts_ci95", counts_ci95_json(p.sampled));
  Json kernels = Json::array();
  for (const KernelPrediction& k : p.kernels) {
    Json steps = Json::array();
    for (const StepPrediction& s : k.steps) {
      Json j = Json::object();
      j.set("step", s.step).set("array", s.array).set("memory", to_string(s.memory)).set("op", to_string(s.op));
      j.set("requests", s.requests).set("warps", s.warps).set("slots", s.slots).set("congestion", s.congestion);
      j.set("bank_conflicts", s.bank_conflicts).set("sectors_per_request", s.sectors_per_request);
      j.set("l2_hit_rate", s.l2_hit_rate);
      j.set("dram_bytes", s.memory == Space::Global ? Json(s.dram_bytes) : Json());
      j.set("predicted_ms", s.ms).set("predicted_ms_ci95", s.ms_ci95).set("share", s.share);
      j.set("counts", counts_json(s.counts));
      steps.push(std::move(j));
    }
    const auto priced = [&](double x) { return p.instructions_priced ? Json(x) : Json(); };
    kernels.push(Json::object()
                     .set("name", k.name)
                     .set("predicted_ms", k.ms)
                     .set("launch_ms", k.launch_ms)
                     .set("memory_ms", priced(k.memory_ms))
                     .set("instruction_ms", priced(k.instruction_ms))
                     .set("warp_instructions", priced(k.warp_instructions))
                     .set("interval_factor", k.interval_factor >= 1 ? Json(k.interval_factor) : Json())
                     .set("counts", counts_json(k.counts))
                     .set("steps", std::move(steps)));
  }
  out.set("kernels", std::move(kernels));
  out.set("instructions", p.instructions.empty() ? Json() : Json(p.instructions));
  set_interval_json(out, p);
  return out;
}

}  // namespace mmsim::predict
