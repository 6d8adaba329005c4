#include "predict/validate/prediction_table.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <stdexcept>

#include "algorithms/offline/row_schedule.h"
#include "algorithms/registry.h"
#include "io/input_file.h"
#include "io/quote.h"
#include "predict/fit.h"
#include "predict/validate/csv_rows.h"
#include "predict/validate/memory_scheduler.h"

namespace mmsim::predict {

namespace {

// The runs a counts file can name by algorithm, permutation, type and n alone: KNI's, whose
// parameters are just those, and parm's, whose variant stands in the permutation's place.
bool countable(const MeasuredRun& m) { return m.source == "kasagi-t2" || m.source == "parm-gpu"; }

// The registry algorithm whose program is the GPU kernel's (cuda/gpu.cu), or "" when none is.
std::string simulated_for(const MeasuredRun& m) {
  if (m.source != "kasagi-t2") return m.algorithm;  // the family readers map their own rows
  if (m.kernel == "d-designated" || m.kernel == "s-designated") return m.kernel;
  if (m.kernel == "in-place") return m.permutation;  // KNI Sect. 5: transpose, shuffle, bit-reversal
  // The paper's kernel and the pipelined one make the same accesses (the pipelined one only
  // overlaps them more): both are the registry's three-step scheduled permutation. The fused
  // kernel gathers rows in three passes: the registry's scheduled-fused.
  if (m.kernel == "scheduled-paper" || m.kernel == "scheduled-pipelined") return "scheduled";
  if (m.kernel == "scheduled-fused") return "scheduled-fused";
  return "";
}

std::uint32_t element_bytes(const std::string& type) { return type == "double" ? 8 : 4; }

// The parameters of the run that mirrors m: a KNI kernel's are its size and permutation, and the
// fused kernel's rows per block as the GPU chose them for its element size.
ParamValues params_for(const MeasuredRun& m) {
  if (m.source != "kasagi-t2") return m.params;
  ParamValues v{{"n", static_cast<std::int64_t>(m.n)}, {"perm", m.permutation}};
  if (m.kernel == "scheduled-fused") {
    const auto side = static_cast<std::uint64_t>(std::llround(std::sqrt(static_cast<double>(m.n))));
    v.set("rows", std::int64_t{offline::fused_rows_per_block(side, element_bytes(m.type))});
  }
  return v;
}

// The time a model predicts for m from one run's counts.
double priced_ms(const predict::CostModel& f, const MeasuredRun& m, const predict::RunCounts& counts) {
  double ms = 0;
  if (m.pricing == Pricing::WholeRun) {
    ms = predict::predicted_ms(f, counts);
    if (m.tile_floor) ms = std::max(ms, m.tile_floor->ms());
  } else if (m.pricing == Pricing::Instructions) {
    const InstructionWork& w = m.work;
    // On the DMM with l = 1 a round's time units are its congestion: the units beyond the
    // accesses are the extra slots.
    const double extra = std::max(0.0, static_cast<double>(counts.shared_time_units) - w.steps);
    const auto warps = static_cast<double>(m.waves);
    double cycles = w.many ? predict::sm_cycles(w.costs, w.warp_instructions, w.steps, extra, warps)
                           : predict::lone_cycles(w.costs, w.warp_instructions, w.steps, extra);
    // Each warp loads its data, works, then stores: the copies add to the work's cycles, and
    // their fixed cycles hold the launch (copy_cost.h); without them, the model's launch.
    if (w.many && w.copy) cycles += w.copy->cycles(w.rows, warps);
    ms = cycles / w.sm_clock_khz + (w.many && !w.copy ? f.price_of("launches") + f.price_of("runs") : 0);
  } else {
    // Only the shared-memory time units (and a launch per wave batch): the other counts of a
    // one-warp shared-memory run are its input and output, outside the GPU's timed region.
    ms = f.price_of("shared_time_units") * static_cast<double>(counts.shared_time_units);
    // One launch, the run's first: where the model prices that apart (runs), both prices.
    if (m.pricing == Pricing::Waves)
      ms = ms * static_cast<double>(m.waves) + f.price_of("launches") + f.price_of("runs");
  }
  return ms;
}

// The mean over the runs of one measurement (one per seed).
double priced_ms(const predict::CostModel& f, const MeasuredRun& m, const std::vector<predict::RunCounts>& runs) {
  double sum = 0;
  for (const predict::RunCounts& c : runs) sum += priced_ms(f, m, c);
  return runs.empty() ? NAN : sum / static_cast<double>(runs.size());
}

// Runs an algorithm as the profile's machine would: an HMM algorithm on the profile's HMM with its
// GPU-like global memory (predict::count_algorithm, or count_algorithm_sampled with a sampling), a
// DMM one (one warp's shared memory) on a DMM of the profile's w and l, whole: its few sectors fit
// any sample budget.
predict::SampledAlgorithmCounts count_on_profile(const predict::GpuProfile& profile, const AlgorithmEntry& entry,
                                                 ParamValues given, std::uint32_t element_bytes, unsigned threads,
                                                 const std::optional<predict::SamplingOptions>& sampling) {
  predict::SampledAlgorithmCounts out;
  if (entry.machine == ModelKind::Hmm && sampling)
    return predict::count_algorithm_sampled(profile, entry, std::move(given), element_bytes, threads, *sampling);
  if (entry.machine == ModelKind::Hmm) {
    auto exact = predict::count_algorithm(profile, entry, std::move(given), element_bytes, threads);
    out.counts.counts = exact.counts;
    out.report = std::move(exact.report);
    return out;
  }
  set_machine(given, entry, profile.machine);  // w and l; the A-S entries declare no l: their DMM has l = 1
  out.counts.counts = predict::count_warm(
      profile, element_bytes,
      [&](const EngineOptions& options) {
        out.report = run_algorithm(entry, given, options);
        return out.report.stats;
      },
      1);
  return out;
}

// Half the width of the 95 % sampling interval of a model's price of m, the mean over its seeds'
// runs: each run's half-width (none but the counts priced whole: predict/sampled.h) combined as
// independent samples' are.
double priced_ci95(const predict::CostModel& f, const MeasuredRun& m, const std::vector<predict::SampledCounts>& runs) {
  if (m.pricing != Pricing::WholeRun || runs.empty()) return 0;  // shared-memory time units are counted whole
  double square = 0;
  for (const predict::SampledCounts& s : runs) square += std::pow(s.half_width_ms(f), 2);
  return std::sqrt(square) / static_cast<double>(runs.size());
}

std::string pricing_text(Pricing p) {
  switch (p) {
    case Pricing::WholeRun:
      return "every count of the run";
    case Pricing::SharedOnly:
      return "the run's shared-memory time units alone";
    case Pricing::Waves:
      return "one launch + ceil(instances / k) runs one after another on each DMM";
    case Pricing::Instructions:
      return "the warp's instructions, shared accesses and extra slots at the instruction microbenchmarks' costs "
             "(a launch of many: with its copies in and out at the copy microbenchmarks' costs)";
  }
  return "?";
}

}  // namespace

double TileFloor::ms() const {
  double cycles = 0;
  for (const Launch& l : launches) {
    predict::TileSample shape;
    shape.loads = l.loads;
    shape.waves = l.waves;
    shape.words_per_sm = l.words_per_sm;
    shape.beyond_l2 = l.beyond_l2;
    cycles += costs.cycles(shape);
  }
  return cycles / sm_clock_khz;
}

double InstructionWork::interval_factor() const {
  if (!many) return costs.lone.interval_factor;
  return std::max({costs.lone.interval_factor, costs.many.interval_factor, copy ? copy->interval_factor : 1.0});
}

std::vector<MeasuredRun> read_kasagi_measurements(const std::filesystem::path& csv, std::uint64_t min_n,
                                                  std::uint64_t max_n, const std::string& type) {
  InputFile input("--measured", csv.string(), std::uint64_t{1} << 28, "a measured table");
  std::istream& in = input.stream();
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(csv.string() + ": empty");
  const std::vector<std::string> head = validate::split_csv_line(line);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(head.begin(), head.end(), name);
    if (it == head.end()) throw std::invalid_argument(csv.string() + ": no column " + quote(name));
    return static_cast<std::size_t>(it - head.begin());
  };
  const std::size_t c_type = column("type"), c_side = column("sqrt_n"), c_perm = column("permutation"),
                    c_alg = column("algorithm"), c_ms = column("ms");
  std::vector<MeasuredRun> out;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const std::vector<std::string> f = validate::split_csv_line(line);
    const auto bad = [&](const std::string& what) {
      return std::invalid_argument(csv.string() + ", line " + std::to_string(number) + ": " + what);
    };
    if (f.size() < head.size()) throw bad("fewer fields than the header");
    if (f[c_type] != type) continue;
    MeasuredRun m;
    m.type = f[c_type];
    m.permutation = f[c_perm];
    m.kernel = f[c_alg];
    try {
      const std::uint64_t side = std::stoull(f[c_side]);
      m.n = side * side;
      m.ms = std::stod(f[c_ms]);
    } catch (const std::exception&) {
      throw bad("sqrt(n) and ms must be numbers");
    }
    if (!(m.ms > 0)) throw bad("ms must be positive");
    if (m.n < min_n || m.n > max_n) continue;
    m.family = m.kernel.rfind("scheduled", 0) == 0 ? "scheduled" : m.kernel == "in-place" ? "in-place" : "conventional";
    out.push_back(std::move(m));
  }
  return out;
}

std::uint64_t simulation_bytes(const std::string& algorithm, std::uint64_t n) {
  // Peak resident bytes per element, measured with /usr/bin/time -v on `mmsim predict` at n = 2^22
  // and 2^24 (docs/prediction.md), rounded up.
  // scheduled 71 (the engine's 10 global arrays, alpha, beta and the tiles, 3 registers a thread,
  // P), d-designated 24, transpose 20; s-designated holds P^-1 besides P.
  const std::uint64_t per_element = algorithm == "scheduled" ? 72 : 28;
  return per_element * n + (std::uint64_t{256} << 20);  // and the program, the L2's tags (50-60 MB), the DRAM rows
}

std::vector<PredictedRun> predict_runs(const predict::GpuProfile& profile, const std::vector<MeasuredRun>& runs,
                                       const SimulationPlan& plan) {
  struct Job {
    predict::RunIdentity run;  ///< for the counts file: countable runs only (reusable: true)
    ParamValues params;
    unsigned seeds = 1;
    bool reusable = false;
    std::vector<predict::RunCounts> counts;       ///< one per seed
    std::vector<predict::SampledCounts> samples;  ///< one per seed when simulated; empty when reused
    int sample_shift = 0;                         ///< the largest of the seeds' (or the reused row's)
    std::uint64_t sample_seed = 0;
    bool correct = false, reused = false;
    std::string error;
  };
  std::vector<Job> jobs;
  std::map<std::tuple<std::string, ParamValues, std::string, unsigned>, std::size_t> index;
  std::vector<std::optional<std::size_t>> job_of(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string alg = simulated_for(runs[i]);
    if (alg.empty()) continue;
    const auto params = params_for(runs[i]);
    const auto key = std::make_tuple(alg, params, runs[i].type, runs[i].seeds);
    auto [it, fresh] = index.emplace(key, jobs.size());
    if (fresh) {
      // A counts file names a run by algorithm, permutation, type and n (countable); the other
      // families' runs are simulated every time.
      Job job;
      job.run = {alg, runs[i].permutation, runs[i].type, runs[i].n};
      job.params = params;
      job.seeds = runs[i].seeds;
      job.reusable = countable(runs[i]);
      const predict::CountsRow* known =
          plan.reuse && job.reusable
              ? plan.reuse->find(job.run, predict::machine_fields(profile, element_bytes(job.run.type)))
              : nullptr;
      // An exact validation reuses exact rows only; a sampled one, either.
      if (known && known->sample_shift > 0 && !plan.sampling) known = nullptr;
      if (known) {
        job.counts = {known->counts};
        job.sample_shift = known->sample_shift;
        job.sample_seed = known->sample_seed;
        job.correct = known->correct;
        job.reused = true;
      }
      jobs.push_back(std::move(job));
    }
    job_of[i] = it->second;
  }
  // Largest first, so that the longest runs do not start last.
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < jobs.size(); ++j)
    if (!jobs[j].reused && !plan.counts_only) order.push_back(j);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return jobs[a].run.n > jobs[b].run.n; });
  if (plan.progress && plan.reuse)
    *plan.progress << "validate: " << std::count_if(jobs.begin(), jobs.end(), [](const Job& j) { return j.reused; })
                   << " of " << jobs.size() << " runs found in the counts file, " << order.size() << " to simulate"
                   << std::endl;
  std::vector<MemoryJob> sized;
  for (std::size_t j : order) {
    const Job& job = jobs[j];
    std::string what = job.run.algorithm;
    for (const auto& [key, value] : job.params.items()) what += " " + key + "=" + display(value);
    sized.push_back({what + " " + job.run.type, simulation_bytes(job.run.algorithm, job.run.n)});
  }
  const unsigned per_run = std::max<unsigned>(
      1, plan.threads /
             static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(order.size(), plan.threads))));
  std::mutex finishing;
  run_within_memory(
      sized, plan.threads, plan.max_memory,
      [&](std::size_t k) {
        Job& job = jobs[order[k]];
        try {
          const AlgorithmEntry* entry = find_algorithm(job.run.algorithm);
          if (entry == nullptr) throw std::logic_error("no registry entry " + job.run.algorithm);
          job.correct = true;
          for (unsigned seed = 0; seed < job.seeds; ++seed) {
            ParamValues given = job.params;
            if (job.seeds > 1) given.set("seed", given.integer("seed") + seed);
            auto r = count_on_profile(profile, *entry, given, element_bytes(job.run.type), per_run, plan.sampling);
            job.counts.push_back(r.counts.counts);
            job.sample_shift = std::max(job.sample_shift, r.counts.shift);
            job.samples.push_back(std::move(r.counts));
            job.correct = job.correct && r.report.correct;
          }
          if (job.sample_shift > 0) job.sample_seed = plan.sampling->seed;
          if (plan.finished && job.reusable) {
            const std::lock_guard lock(finishing);
            predict::CountsRow row{job.run, predict::machine_fields(profile, element_bytes(job.run.type)),
                                   job.counts.front(), job.correct};
            row.sample_shift = job.sample_shift;
            row.sample_seed = job.sample_seed;
            plan.finished(row);
          }
        } catch (const std::exception& e) {
          job.error = e.what();
        }
      },
      plan.progress);
  for (const Job& j : jobs)
    if (!j.error.empty())
      throw std::runtime_error(j.run.algorithm + " n = " + std::to_string(j.run.n) + ": " + j.error);

  std::vector<PredictedRun> out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    PredictedRun p;
    p.measured = runs[i];
    if (job_of[i] && jobs[*job_of[i]].counts.empty()) {
      p.missing_counts = true;  // counts_only, and the counts file does not hold this run
    } else if (job_of[i]) {
      const Job& j = jobs[*job_of[i]];
      p.simulated = j.run.algorithm;
      p.counts = j.counts.front();
      p.correct = j.correct;
      p.reused = j.reused;
      p.sample_shift = j.sample_shift;
      p.sample_seed = j.sample_seed;
      for (const auto& f : profile.models) p.predicted.push_back(priced_ms(f, runs[i], j.counts));
      // A reused sampled row keeps its counts, not its groups: its interval is not known.
      if (!j.reused || j.sample_shift == 0)
        for (const auto& f : profile.models) p.predicted_ci95.push_back(priced_ci95(f, runs[i], j.samples));
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<predict::CountsRow> counts_rows(const predict::GpuProfile& profile, const std::vector<PredictedRun>& rows) {
  std::vector<predict::CountsRow> out;
  for (const PredictedRun& r : rows)
    if (!r.simulated.empty() && countable(r.measured)) {
      out.push_back({{r.simulated, r.measured.permutation, r.measured.type, r.measured.n},
                     predict::machine_fields(profile, element_bytes(r.measured.type)),
                     r.counts,
                     r.correct});
      out.back().sample_shift = r.sample_shift;
      out.back().sample_seed = r.sample_seed;
    }
  return out;
}

namespace {
// What made a validation's tables and is the same on every row (docs/report.md): the profile (its
// device and calibration date) and the machine its runs were simulated on.
std::vector<std::pair<std::string, report::Cell>> profile_parameters(const predict::GpuProfile& profile) {
  const auto integer = [](auto v) { return report::Cell(static_cast<long long>(v)); };
  return {{"device", profile.device},
          {"profile_date", profile.date},
          {"w", integer(profile.machine.w)},
          {"l", integer(profile.machine.l)},
          {"L", integer(profile.machine.L)},
          {"k", integer(profile.machine.k)},
          {"sector_bytes", integer(profile.memory.sector_bytes)},
          {"cache_bytes", integer(profile.memory.cache_bytes)}};
}
}  // namespace

report::Table prediction_table(const predict::GpuProfile& profile, const std::vector<PredictedRun>& rows) {
  report::Table t;
  t.parameters = profile_parameters(profile);
  t.title = "Predicted against measured GPU time (" + profile.gpu.name + ")";
  t.header = {
      "profile: " + profile.device + ", calibrated " + profile.date +
          " on microbenchmarks only (mmsim gpu calibrate); machine HMM w = " + std::to_string(profile.machine.w) +
          ", k = " + std::to_string(profile.machine.k) + ", sectors of " + std::to_string(profile.memory.sector_bytes) +
          " B, L2 " + std::to_string(profile.memory.cache_bytes) + " B",
      "error = predicted / measured - 1; each run simulated twice, the second counted (warm cache)",
      "sample fraction: the share of the DRAM rows whose L2 and DRAM were simulated, the counts scaled (1: every "
      "one); MODEL ms ci95: half the width of the predicted ms' 95 % sampling interval (empty for a sampled run "
      "reused from a counts file); interval factor: the run's own interval, x/ that factor (empty: the profile's)"};
  t.columns = {"family", "kernel", "permutation", "type", "n", "measured ms", "simulated"};
  for (const auto& f : profile.models) {
    t.columns.push_back(f.name + " ms");
    t.columns.push_back(f.name + " error");
  }
  t.columns.push_back("model known to fail");
  t.columns.push_back("correct");
  // The sampling (predict/sampled.h), after the columns tables made before it had.
  t.columns.push_back("sample fraction");
  for (const auto& f : profile.models) t.columns.push_back(f.name + " ms ci95");
  // A run priced by the instruction term has its own interval, from that term's cross-validation
  // (InstructionWork::interval_factor); empty: the profile's, from the memory microbenchmarks'.
  t.columns.push_back("interval factor");
  // How each family's GPU figure became ms and how its runs are priced, once per family.
  std::vector<std::string> conversions;
  for (const PredictedRun& r : rows) {
    if (r.measured.measured_as.empty()) continue;
    const std::string line = r.measured.family + ": measured ms = " + r.measured.measured_as +
                             "; predicted: " + pricing_text(r.measured.pricing);
    if (std::find(conversions.begin(), conversions.end(), line) == conversions.end()) conversions.push_back(line);
  }
  t.header.insert(t.header.end(), conversions.begin(), conversions.end());
  for (const PredictedRun& r : rows) {
    std::vector<report::Cell> row{r.measured.family,
                                  r.measured.kernel,
                                  r.measured.permutation,
                                  r.measured.type,
                                  static_cast<long long>(r.measured.n),
                                  r.measured.ms,
                                  r.missing_counts      ? std::string("not in the counts file")
                                  : r.simulated.empty() ? std::string("none mirrors this kernel")
                                                        : r.simulated};
    for (std::size_t m = 0; m < profile.models.size(); ++m) {
      if (r.simulated.empty()) {
        row.emplace_back();
        row.emplace_back();
        continue;
      }
      row.push_back(r.predicted[m]);
      row.push_back(r.predicted[m] / r.measured.ms - 1);
    }
    row.push_back(r.measured.known_failure);
    row.push_back(r.simulated.empty() ? std::string("not simulated") : std::string(r.correct ? "yes" : "NO"));
    if (r.simulated.empty())
      row.emplace_back();
    else
      row.push_back(1.0 / static_cast<double>(std::uint64_t{1} << r.sample_shift));
    for (std::size_t m = 0; m < profile.models.size(); ++m)
      row.push_back(m < r.predicted_ci95.size() ? report::Cell(r.predicted_ci95[m]) : report::Cell());
    row.push_back(r.measured.pricing == Pricing::Instructions ? report::Cell(r.measured.work.interval_factor())
                                                              : report::Cell());
    t.add_row(std::move(row));
  }
  return t;
}

report::Table prediction_summary(const predict::GpuProfile& profile, const std::vector<PredictedRun>& rows) {
  report::Table t;
  t.parameters = profile_parameters(profile);
  t.title = "Prediction errors per family (" + profile.gpu.name + ")";
  t.header = {
      "median of |predicted / measured - 1| and worst factor max(predicted/measured, measured/predicted) over the runs "
      "simulated"};
  // The capacity the runs were simulated with: the GPU's L2, or what fit_cache_capacity chose.
  t.header.push_back("simulated L2: " + std::to_string(profile.memory.cache_bytes) +
                     " bytes (the GPU's: " + std::to_string(profile.gpu.l2_bytes) + ")" +
                     (profile.cache_fit.empty() ? "" : ", fitted on the microbenchmarks"));
  for (const auto& f : profile.models) {
    std::string line = f.name + ": ";
    for (const predict::PricedCount& p : f.prices)
      line += (&p == f.prices.data() ? "" : ", ") + p.constant + " = " + report::format_number(p.ms, 4) + " x " +
              std::string(predict::count_fields()[p.count].name);
    line += "; microbenchmarks median |error| " + report::format_number(f.median_abs_error, 3) + ", worst " +
            report::format_number(f.worst_abs_error, 3);
    t.header.push_back(line);
  }
  for (const auto& r : rows)
    if (r.measured.pricing == Pricing::Instructions) {  // one fit per measured folder: the first row's
      t.header.push_back("instruction term (the rows priced with it): " + predict::describe(r.measured.work.costs));
      if (r.measured.work.copy)
        t.header.push_back("copy term (the launches of many priced with it): " +
                           predict::describe(*r.measured.work.copy));
      break;
    }
  for (const auto& r : rows)
    if (r.measured.tile_floor) {  // one fit per measured folder: the first row's
      t.header.push_back("tile term (the runs it bounds from below): " +
                         predict::describe(r.measured.tile_floor->costs));
      break;
    }
  t.columns = {"family",       "runs",   "cost model", "median abs error",
               "worst factor", "n from", "n to",       "runs the model is known to fail"};
  std::vector<std::string> families;
  for (const auto& r : rows)
    if (!r.simulated.empty() && std::find(families.begin(), families.end(), r.measured.family) == families.end())
      families.push_back(r.measured.family);
  families.push_back("all");
  for (const std::string& fam : families) {
    for (std::size_t m = 0; m < profile.models.size(); ++m) {
      std::vector<double> errors;
      double worst = 1;
      std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
      long long known = 0;
      for (const auto& r : rows) {
        if (r.simulated.empty() || (fam != "all" && r.measured.family != fam)) continue;
        known += r.measured.known_failure.empty() ? 0 : 1;
        const double ratio = r.predicted[m] / r.measured.ms;
        errors.push_back(std::abs(ratio - 1));
        worst = std::max({worst, ratio, ratio > 0 ? 1 / ratio : INFINITY});
        lo = std::min(lo, r.measured.n);
        hi = std::max(hi, r.measured.n);
      }
      if (errors.empty()) continue;
      t.add_row({fam, static_cast<long long>(errors.size()), profile.models[m].name, median_of(errors), worst,
                 static_cast<long long>(lo), static_cast<long long>(hi), known});
    }
  }
  return t;
}

report::Table microbench_table(const predict::GpuProfile& profile) {
  if (profile.timing_counts.size() != profile.timings.size() || profile.timings.empty())
    throw std::invalid_argument(
        "the profile records no counts of its microbenchmarks (written before they were; refit it with mmsim "
        "validate --refit)");
  report::Table t;
  t.title = "Calibration microbenchmarks priced by each cost model (" + profile.gpu.name + ")";
  t.header = {"profile: " + profile.device + ", calibrated " + profile.date + "; simulated L2 " +
                  std::to_string(profile.memory.cache_bytes) + " B",
              "each model's constants were fitted on these microbenchmarks (predict/microbench.h)"};
  t.columns = {"bench", "element bytes", "n", "MiB", "measured ms"};
  for (const auto& m : profile.models) {
    t.columns.push_back(m.name + " ms");
    t.columns.push_back(m.name + " / measured");
  }
  for (std::size_t i = 0; i < profile.timings.size(); ++i) {
    const MicrobenchTiming& b = profile.timings[i];
    std::vector<report::Cell> row{b.bench.name(), static_cast<long long>(b.bench.element_bytes),
                                  static_cast<long long>(b.bench.n),
                                  static_cast<double>(b.bench.n * b.bench.element_bytes) / (1 << 20), b.median_ms};
    for (const auto& m : profile.models) {
      const double ms = predict::predicted_ms(m, profile.timing_counts[i]);
      row.push_back(ms);
      row.push_back(ms / b.median_ms);
    }
    t.add_row(std::move(row));
  }
  return t;
}

}  // namespace mmsim::predict
