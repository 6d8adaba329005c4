#include "predict/gpu_profile.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <type_traits>

#include "io/output_file.h"
#include "io/quote.h"
#include "predict/fit.h"
#include "predict/microbench_values.h"
#include "predict/simulate.h"
#include "report/json.h"
#include "report/json_reader.h"
#include "sim/workers.h"

namespace mmsim::predict {

const CostModel& GpuProfile::model(std::string_view name) const {
  std::string have;
  for (const CostModel& m : models) {
    if (m.name == name) return m;
    have += (have.empty() ? "" : ", ") + m.name;
  }
  throw std::invalid_argument(
      "profile: no cost model " + std::string(name) + " (it has " + have +
      "; a profile fitted before the model was added: fit it again with mmsim validate --refit)");
}

std::string GpuProfile::default_model() const {
  if (!choice.chosen.empty()) return choice.chosen;
  return std::string(kDefaultCostModel);
}

std::optional<double> CacheCandidate::error_of(std::string_view model) const {
  for (const auto& [name, error] : mean_abs_log_error)
    if (name == model) return error;
  return std::nullopt;
}

GpuProfile profile_skeleton(const GpuFacts& gpu, std::string device, std::string date) {
  GpuProfile p;
  p.gpu = gpu;
  p.device = std::move(device);
  p.date = std::move(date);
  // The machine of `mmsim validate`: w = 32 (a warp), l = 1, L = 400 (time units only; no cost
  // model prices latency), k = the SMs.
  p.machine = MachineParams{ModelKind::Hmm, 32, 1, 400, std::max(1, gpu.sm_count)};
  p.memory.sector_bytes = 32;  // the unit of an NVIDIA L2 / DRAM transfer
  p.memory.cache_bytes = gpu.l2_bytes;
  p.memory.cache_ways = 16;
  // HBM3 opens rows of 1 KiB per pseudo-channel bank; an H100's five stacks have 2560 such banks
  // (a round 2048 here: the count only sets how many streams stay open at once).
  p.memory.dram_row_bytes = 1024;
  p.memory.dram_banks = 2048;
  return p;
}

namespace {

std::vector<double> timed_ms(const std::vector<MicrobenchTiming>& timings) {
  std::vector<double> times;
  for (const MicrobenchTiming& t : timings) {
    if (!(t.median_ms > 0)) throw std::invalid_argument("calibration: " + t.bench.name() + " has no positive time");
    times.push_back(t.median_ms);
  }
  return times;
}

// Simulates every microbenchmark on every profile's machine: counts[p][i] for profiles[p] and
// timings[i]. Each run has its own engine and memory (one thread each: the cache model sees warps
// in order); `threads` runs at a time, the largest arrays first so that none is left to run alone.
std::vector<std::vector<RunCounts>> count_microbenches(const std::vector<GpuProfile*>& profiles,
                                                       const std::vector<MicrobenchTiming>& timings, unsigned threads) {
  std::vector<std::vector<RunCounts>> counts(profiles.size(), std::vector<RunCounts>(timings.size()));
  std::vector<std::pair<std::size_t, std::size_t>> jobs;
  for (std::size_t p = 0; p < profiles.size(); ++p)
    for (std::size_t i = 0; i < timings.size(); ++i) jobs.emplace_back(p, i);
  const auto bytes = [&](const std::pair<std::size_t, std::size_t>& job) {
    const Microbench& b = timings[job.second].bench;
    return b.n * b.element_bytes;
  };
  std::stable_sort(jobs.begin(), jobs.end(), [&](const auto& x, const auto& y) { return bytes(x) > bytes(y); });
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t j; (j = next.fetch_add(1)) < jobs.size();)
      counts[jobs[j].first][jobs[j].second] = count_microbench(*profiles[jobs[j].first], timings[jobs[j].second].bench);
  };
  std::vector<std::thread> pool;
  const unsigned t =
      std::max(1u, std::min<unsigned>(threads == 0 ? hardware_threads() : threads, static_cast<unsigned>(jobs.size())));
  for (unsigned i = 1; i < t; ++i) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  return counts;
}

// The models a fit produces: fitted_models(), then any other model the profile holds, as it is.
std::vector<CostModel> models_to_fit(const GpuProfile& profile) {
  std::vector<CostModel> out;
  for (const CostModelSpec& spec : fitted_models()) out.push_back(unfitted(spec));
  for (const CostModel& m : profile.models)
    if (std::none_of(out.begin(), out.end(), [&](const CostModel& o) { return o.name == m.name; })) out.push_back(m);
  return out;
}

// Fits the cost models to the timings from counts already simulated on the profile's machine.
void fit_models(GpuProfile& profile, const std::vector<MicrobenchTiming>& timings, std::vector<RunCounts> counts) {
  const std::vector<double> times = timed_ms(timings);
  profile.timings = timings;
  profile.timing_counts = std::move(counts);
  profile.models = models_to_fit(profile);
  for (CostModel& f : profile.models) {
    if (f.prices.size() > 16) throw std::invalid_argument("cost model " + f.name + ": more than 16 counts to fit");
    std::vector<std::vector<double>> rows;
    for (const RunCounts& c : profile.timing_counts) rows.push_back(features(f, c));
    const std::vector<double> constants = nonnegative_relative_fit(rows, times);
    for (std::size_t i = 0; i < constants.size(); ++i) f.prices[i].ms = constants[i];
    std::vector<double> errors;
    for (std::size_t i = 0; i < times.size(); ++i)
      errors.push_back(std::abs(predicted_ms(f, profile.timing_counts[i]) / times[i] - 1));
    f.median_abs_error = median_of(errors);
    f.worst_abs_error = errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end());
  }
  profile.choice = choose_model(profile.models, profile.timings, profile.timing_counts);
}

}  // namespace

void fit_profile(GpuProfile& profile, const std::vector<MicrobenchTiming>& timings, unsigned threads) {
  timed_ms(timings);  // refuse a bad timing before simulating anything
  auto counts = count_microbenches({&profile}, timings, threads);
  fit_models(profile, timings, std::move(counts[0]));
}

void refit_recorded(GpuProfile& profile) {
  if (profile.timings.empty() || profile.timing_counts.size() != profile.timings.size())
    throw std::invalid_argument("the profile records no simulated counts of its microbenchmarks to fit on");
  const std::vector<MicrobenchTiming> timings = profile.timings;
  std::vector<RunCounts> counts = profile.timing_counts;
  fit_models(profile, timings, std::move(counts));
}

namespace {

// The capacity fit_cache_capacity keeps: the smallest error of kCacheFitCostModel (ties: the larger).
template <typename ErrorOf>
std::size_t best_capacity(std::size_t candidates, ErrorOf error_of) {
  std::size_t best = 0;
  double best_error = 0;
  for (std::size_t k = 0; k < candidates; ++k)
    if (const double e = error_of(k); k == 0 || e <= best_error) best = k, best_error = e;
  return best;
}

double mean_abs_log_error(const CostModel& f, const std::vector<MicrobenchTiming>& timings,
                          const std::vector<RunCounts>& counts) {
  double sum = 0;
  for (std::size_t i = 0; i < timings.size(); ++i)
    sum += std::abs(std::log(std::max(predicted_ms(f, counts[i]), 1e-12) / timings[i].median_ms));
  return timings.empty() ? 0 : sum / static_cast<double>(timings.size());
}

const CostModel* find_model(const GpuProfile& p, std::string_view name) {
  for (const CostModel& m : p.models)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace

void fit_cache_capacity(GpuProfile& profile, const std::vector<MicrobenchTiming>& timings, unsigned threads,
                        const std::vector<std::vector<MicrobenchTiming>>& passes) {
  const std::uint64_t l2 = profile.gpu.l2_bytes > 0 ? profile.gpu.l2_bytes : profile.memory.cache_bytes;
  if (l2 == 0) throw std::invalid_argument("fit_cache_capacity: the profile has no L2 size to start from");
  timed_ms(timings);
  // Whole sets of the GPU's 128-byte lines (the capacities every profile was fitted at).
  const std::uint64_t set_bytes =
      std::uint64_t{std::max(profile.memory.sector_bytes, kL2LineBytes)} * profile.memory.cache_ways;
  std::vector<GpuProfile> candidates;
  for (std::uint64_t eighths = 1; eighths <= 8; ++eighths) {
    candidates.push_back(profile);
    candidates.back().memory.cache_bytes = std::max(set_bytes, l2 * eighths / 8 / set_bytes * set_bytes);
  }
  std::vector<GpuProfile*> machines;
  for (GpuProfile& c : candidates) machines.push_back(&c);
  auto counts = count_microbenches(machines, timings, threads);
  // Each pass alone, on the same simulated counts: the capacity and the constants it would give.
  std::vector<CalibrationPass> pass_fits;
  for (const auto& pass : passes) {
    std::vector<GpuProfile> fitted;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      fitted.push_back(candidates[k]);
      fit_models(fitted.back(), pass, counts[k]);
    }
    const std::size_t k = best_capacity(fitted.size(), [&](std::size_t c) {
      const CostModel* f = find_model(fitted[c], kCacheFitCostModel);
      return f ? mean_abs_log_error(*f, pass, fitted[c].timing_counts) : 0.0;
    });
    CalibrationPass cp;
    cp.cache_bytes = fitted[k].memory.cache_bytes;
    cp.chosen = fitted[k].choice.chosen;
    for (const CostModel& f : fitted[k].models)
      for (const PricedCount& price : f.prices) cp.constants.push_back({f.name, price.constant, price.ms});
    pass_fits.push_back(std::move(cp));
  }
  std::vector<CacheCandidate> tried;
  std::vector<double> default_error(candidates.size(), 0);
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    GpuProfile& candidate = candidates[k];
    fit_models(candidate, timings, std::move(counts[k]));
    CacheCandidate c;
    c.cache_bytes = candidate.memory.cache_bytes;
    for (const CostModel& f : candidate.models) {
      c.mean_abs_log_error.emplace_back(f.name, mean_abs_log_error(f, timings, candidate.timing_counts));
      if (f.name == kCacheFitCostModel) default_error[k] = c.mean_abs_log_error.back().second;
    }
    tried.push_back(std::move(c));
  }
  const std::size_t best = best_capacity(candidates.size(), [&](std::size_t k) { return default_error[k]; });
  profile = std::move(candidates[best]);
  profile.cache_fit = std::move(tried);
  profile.passes = std::move(pass_fits);
}

std::vector<ConstantSpread> constant_spread(const GpuProfile& profile) {
  std::vector<ConstantSpread> out;
  if (profile.passes.empty()) return out;
  for (const CostModel& f : profile.models)
    for (const PricedCount& price : f.prices) {
      std::vector<double> values;
      for (const CalibrationPass& pass : profile.passes)
        for (const CalibrationPass::Constant& c : pass.constants)
          if (c.model == f.name && c.constant == price.constant) values.push_back(c.ms);
      if (values.empty()) continue;
      const auto [least, greatest] = std::minmax_element(values.begin(), values.end());
      out.push_back({f.name, price.constant, price.ms, median_of(values), *least, *greatest});
    }
  return out;
}

// ---- JSON ----

report::Json counts_json(const RunCounts& c) {
  report::Json counts = report::Json::object();
  for (const CountField& f : count_fields())
    if (f.stored) counts.set(std::string(f.name), f.of(c));
  return counts;
}

report::Json predictions_json(const GpuProfile& profile, const RunCounts& counts) {
  report::Json every = report::Json::object();
  for (const CostModel& m : profile.models) every.set(m.name, predicted_ms(m, counts));
  return every;
}

namespace {

// A whole-number field of the profile as its file holds it: the object and the key, the range a
// file may give it, and the field itself.
struct IntField {
  const char* object;  // "gpu", "machine" or "memory"
  const char* key;
  std::int64_t lo, hi;
  bool optional;  // a file may lack it (the field keeps its default)
  std::int64_t (*get)(const GpuProfile&);
  void (*set)(GpuProfile&, std::int64_t);
};

// The field p.*Part.*Field (p.gpu.sm_count, ...).
template <auto Part, auto Field>
constexpr IntField int_field(const char* object, const char* key, std::int64_t lo, std::int64_t hi,
                             bool optional = false) {
  return {object,
          key,
          lo,
          hi,
          optional,
          [](const GpuProfile& p) { return static_cast<std::int64_t>(p.*Part.*Field); },
          [](GpuProfile& p, std::int64_t v) {
            auto& field = p.*Part.*Field;
            field = static_cast<std::remove_reference_t<decltype(field)>>(v);
          }};
}

// Every whole-number field, in the file's order: the writer and the reader both go by this table.
// memory.cache_line_bytes, in files written while an L2 of lines was simulated beside the L2 of
// sectors (for the model l2-lines, no longer fitted), is left unread. A profile written before the
// write-backs' reach was a parameter lacks dram_write_rows and had the table of 65536 rows.
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 34;
constexpr IntField kIntFields[] = {
    int_field<&GpuProfile::gpu, &GpuFacts::sm_count>("gpu", "sm_count", 1, 100000),
    int_field<&GpuProfile::gpu, &GpuFacts::l2_bytes>("gpu", "l2_bytes", 0, kMaxBytes),
    int_field<&GpuProfile::gpu, &GpuFacts::sm_clock_khz>("gpu", "sm_clock_khz", 0, 100000000),
    int_field<&GpuProfile::gpu, &GpuFacts::memory_clock_khz>("gpu", "memory_clock_khz", 0, 100000000),
    int_field<&GpuProfile::gpu, &GpuFacts::memory_bus_width_bits>("gpu", "memory_bus_width_bits", 0, 100000),
    int_field<&GpuProfile::machine, &MachineParams::w>("machine", "w", 1, 1024),
    int_field<&GpuProfile::machine, &MachineParams::l>("machine", "l", 1, 100000),
    int_field<&GpuProfile::machine, &MachineParams::L>("machine", "L", 1, 100000),
    int_field<&GpuProfile::machine, &MachineParams::k>("machine", "k", 1, 100000),
    int_field<&GpuProfile::memory, &GpuMemoryParams::sector_bytes>("memory", "sector_bytes", 4, 64),
    int_field<&GpuProfile::memory, &GpuMemoryParams::cache_bytes>("memory", "cache_bytes", 0, kMaxBytes),
    int_field<&GpuProfile::memory, &GpuMemoryParams::cache_ways>("memory", "cache_ways", 1, 64),
    int_field<&GpuProfile::memory, &GpuMemoryParams::dram_row_bytes>("memory", "dram_row_bytes", 0, 65536),
    int_field<&GpuProfile::memory, &GpuMemoryParams::dram_banks>("memory", "dram_banks", 1, 65536),
    int_field<&GpuProfile::memory, &GpuMemoryParams::dram_write_rows>("memory", "dram_write_rows", 1,
                                                                      std::int64_t{1} << 20, true),
};

// One setting of the instruction term: its form, its three prices in cycles, and the errors its
// choice expects (instruction_cost.h).
report::Json setting_json(const SettingCosts& c) {
  report::Json j = report::Json::object();
  j.set("form", to_string(c.form))
      .set("cycles_per_instruction", c.instruction)
      .set("cycles_per_access", c.access)
      .set("cycles_per_extra_slot", c.extra_slot)
      .set("fitted_median_abs_error", c.fitted)
      .set("heldout_median_abs_error", c.held_out)
      .set("heldout_median_abs_error_other_form", c.held_out_other_form)
      .set("heldout_worst_factor", c.worst_held_out)
      .set("interval_factor", c.interval_factor)
      .set("benches", static_cast<std::int64_t>(c.samples));
  return j;
}

}  // namespace

report::Json instruction_term_json(const InstructionTerm& t) {
  report::Json j = report::Json::object();
  j.set("fitted_on", t.fitted_on)
      .set("rule", "each form fitted with one bench kind left out in turn; the smaller median held-out error kept")
      .set("lone", setting_json(t.costs.lone))
      .set("many", setting_json(t.costs.many))
      .set("lone_outside_median_abs_error", t.costs.lone_outside)
      .set("lone_outside_benches", static_cast<std::int64_t>(t.costs.lone_outside_samples));
  return j;
}

std::string profile_json(const GpuProfile& p) {
  using report::Json;
  Json gpu = Json::object(), machine = Json::object(), memory = Json::object();
  gpu.set("name", p.gpu.name);
  for (const IntField& f : kIntFields)
    (f.object == std::string_view("gpu")       ? gpu
     : f.object == std::string_view("machine") ? machine
                                               : memory)
        .set(f.key, f.get(p));
  Json models = Json::array();
  for (const CostModel& f : p.models) {
    // The model as data: each count it prices, with its constant, in the order they are summed.
    Json prices = Json::array();
    for (const PricedCount& price : f.prices) {
      Json term = Json::object();
      term.set("constant", price.constant);
      term.set("count", std::string(count_fields()[price.count].name));
      term.set("ms", price.ms);
      prices.push(std::move(term));
    }
    Json m = Json::object();
    m.set("model", f.name);
    m.set("prices", std::move(prices));
    m.set("microbench_median_abs_error", f.median_abs_error);
    m.set("microbench_worst_abs_error", f.worst_abs_error);
    models.push(std::move(m));
  }
  Json benches = Json::array();
  for (const MicrobenchTiming& t : p.timings) {
    Json b = Json::object();
    b.set("bench", t.bench.name());
    b.set("kind", static_cast<int>(t.bench.kind));
    b.set("n", t.bench.n);
    b.set("stride", t.bench.stride);
    b.set("repeats", t.bench.repeats);
    b.set("element_bytes", t.bench.element_bytes);
    if (t.bench.cold) b.set("cold", true);
    b.set("median_ms", t.median_ms);
    if (&t - p.timings.data() < static_cast<std::ptrdiff_t>(p.timing_counts.size())) {
      // How each model's constants price this microbenchmark: the fit, bench by bench.
      const RunCounts& c = p.timing_counts[static_cast<std::size_t>(&t - p.timings.data())];
      b.set("predicted_ms", predictions_json(p, c));
      b.set("counts", counts_json(c));
    }
    benches.push(std::move(b));
  }
  Json choice = Json::object();
  if (!p.choice.chosen.empty()) {
    // How the default model was chosen, and the interval it is printed with (model_choice.h).
    choice.set("rule", "leave one microbenchmark pattern out; the smallest median held-out error");
    choice.set("chosen", p.choice.chosen);
    choice.set("interval_coverage", kIntervalCoverage);
    Json held = Json::array();
    for (const HeldOutError& e : p.choice.models) {
      Json m = Json::object();
      m.set("model", e.model)
          .set("heldout_median_abs_error", e.median_abs_error)
          .set("heldout_worst_factor", e.worst_factor)
          .set("interval_factor", e.interval_factor)
          .set("patterns", static_cast<std::uint64_t>(e.patterns));
      held.push(std::move(m));
    }
    choice.set("models", std::move(held));
  }
  Json root = Json::object();
  root.set("profile", "mmsim GPU profile: constants fitted on the calibration microbenchmarks alone");
  root.set("device", p.device);
  root.set("date", p.date);
  root.set("gpu", std::move(gpu));
  root.set("machine", std::move(machine));
  root.set("memory", std::move(memory));
  root.set("models", std::move(models));
  if (!p.choice.chosen.empty()) root.set("model_choice", std::move(choice));
  if (!p.cache_fit.empty()) {
    // The L2 capacities tried (fit_cache_capacity) and each model's fit at each.
    Json fit = Json::array();
    for (const CacheCandidate& c : p.cache_fit) {
      Json errors = Json::object();
      for (const auto& [model, error] : c.mean_abs_log_error) errors.set(model, error);
      Json entry = Json::object();
      entry.set("cache_bytes", c.cache_bytes);
      entry.set("microbench_mean_abs_log_error", std::move(errors));
      fit.push(std::move(entry));
    }
    root.set("cache_fit", std::move(fit));
  }
  if (!p.passes.empty()) {
    // Each pass of the timings fitted alone: how far one run of the calibration moves the profile.
    Json passes = Json::array();
    for (const CalibrationPass& pass : p.passes) {
      Json constants = Json::array();
      for (const CalibrationPass::Constant& c : pass.constants) {
        Json term = Json::object();
        term.set("model", c.model).set("constant", c.constant).set("ms", c.ms);
        constants.push(std::move(term));
      }
      Json entry = Json::object();
      entry.set("cache_bytes", pass.cache_bytes).set("chosen", pass.chosen).set("constants", std::move(constants));
      passes.push(std::move(entry));
    }
    root.set("calibration_passes", std::move(passes));
  }
  if (p.instruction_term) root.set("instruction_term", instruction_term_json(*p.instruction_term));
  root.set("microbenchmarks", std::move(benches));
  return root.dump() + "\n";
}

namespace {

// Models that profiles of earlier versions hold and that are no longer fitted nor priced
// (docs/prediction.md, "Models retired"): read past, not refused.
constexpr std::string_view kRetiredModels[] = {"sectors", "sectors-rw", "sectors-rw-cache", "dram-rmw", "l2-lines"};

constexpr double kMaxProfileNumber = 1e9;

struct Reader {
  std::string file;
  [[noreturn]] void fail(const std::string& what) const { throw std::invalid_argument(quote(file, 60) + ": " + what); }
  const report::JsonValue& member(const report::JsonValue& v, std::string_view key, const std::string& where) const {
    const report::JsonValue* m = v.is_object() ? v.find(key) : nullptr;
    if (m == nullptr) fail(where + "." + std::string(key) + " is missing");
    return *m;
  }
  std::int64_t integer(const report::JsonValue& v, std::string_view key, const std::string& where, std::int64_t lo,
                       std::int64_t hi) const {
    const auto i = member(v, key, where).integer();
    if (!i || *i < lo || *i > hi)
      fail(where + "." + std::string(key) + " must be an integer in [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
    return *i;
  }
  double number(const report::JsonValue& v, std::string_view key, const std::string& where) const {
    const report::JsonValue& m = member(v, key, where);
    if (!m.is_number()) fail(where + "." + std::string(key) + " must be a number");
    double x = 0;
    std::istringstream in(m.text());
    in >> x;
    // Every number of a profile is a time in ms (a price per count, a benchmark's median) or an
    // error: a bound keeps a price times the largest count (2^40) finite, so that no prediction is
    // inf or NaN (1e308 would be).
    if (!in || !std::isfinite(x) || x < 0 || x > kMaxProfileNumber)
      fail(where + "." + std::string(key) + " must be a number in [0, 1e9]");
    return x;
  }
  std::string text(const report::JsonValue& v, std::string_view key, const std::string& where) const {
    const report::JsonValue& m = member(v, key, where);
    if (!m.is_string()) fail(where + "." + std::string(key) + " must be a string");
    return m.text();
  }
};

}  // namespace

GpuProfile read_profile(const std::filesystem::path& file) {
  const Reader r{file.string()};
  // A regular file only (a FIFO would block for ever), and no larger than a profile can be.
  std::error_code ec;
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec)) r.fail("not a regular file");
  if (std::filesystem::is_regular_file(file, ec) && std::filesystem::file_size(file, ec) > report::kMaxJsonBytes)
    r.fail("larger than a profile can be");
  std::ifstream in(file, std::ios::binary);
  if (!in) r.fail("cannot be read");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  report::JsonValue root;
  try {
    root = report::parse_json(text);
  } catch (const std::invalid_argument& e) {
    r.fail(e.what());
  }
  if (!root.is_object()) r.fail("must hold a JSON object");
  GpuProfile p;
  p.device = r.text(root, "device", "profile");
  p.date = r.text(root, "date", "profile");
  p.gpu.name = r.text(r.member(root, "gpu", "profile"), "name", "gpu");
  p.machine.model = ModelKind::Hmm;
  for (const IntField& f : kIntFields) {
    const auto& object = r.member(root, f.object, "profile");
    if (!f.optional || object.find(f.key) != nullptr) f.set(p, r.integer(object, f.key, f.object, f.lo, f.hi));
  }
  if (auto err = p.memory.validate()) r.fail("memory: " + *err);
  const auto& models = r.member(root, "models", "profile");
  if (!models.is_array() || models.items().empty()) r.fail("models must be a non-empty array");
  for (const auto& m : models.items()) {
    const std::string name = r.text(m, "model", "models[]");
    const std::string where = "models[" + quote(name) + "]";
    CostModel f;
    f.name = name;
    if (const report::JsonValue* prices = m.find("prices"); prices != nullptr) {
      if (!prices->is_array() || prices->items().empty()) r.fail(where + ".prices must be a non-empty array");
      for (const auto& term : prices->items()) {
        const std::string count = r.text(term, "count", where + ".prices[]");
        const auto index = count_index(count);
        if (!index) {
          std::string known;
          for (const CountField& c : count_fields()) known += (known.empty() ? "" : ", ") + std::string(c.name);
          r.fail(where + ".prices[]: unknown count " + quote(count) + " (known: " + known + ")");
        }
        f.prices.push_back({r.text(term, "constant", where + ".prices[]"), *index, r.number(term, "ms", where)});
      }
    } else {
      // Written before models were data: the constants by name, the counts implied by the model.
      const auto spec = std::find_if(fitted_models().begin(), fitted_models().end(),
                                     [&](const CostModelSpec& s) { return s.name == name; });
      if (spec == fitted_models().end()) {
        if (std::find(std::begin(kRetiredModels), std::end(kRetiredModels), name) != std::end(kRetiredModels)) continue;
        r.fail("models[]: unknown cost model " + quote(name) + " (and no prices to say what it prices)");
      }
      const auto& constants = r.member(m, "constants", where);
      f = unfitted(*spec);
      for (PricedCount& price : f.prices) price.ms = r.number(constants, price.constant, where);
    }
    if (m.find("microbench_median_abs_error") != nullptr) {
      f.median_abs_error = r.number(m, "microbench_median_abs_error", where);
      f.worst_abs_error = r.number(m, "microbench_worst_abs_error", where);
    }
    if (std::any_of(p.models.begin(), p.models.end(), [&](const CostModel& o) { return o.name == f.name; }))
      r.fail(where + ": a second model of that name");
    p.models.push_back(std::move(f));
  }
  if (p.models.empty()) r.fail("models: none that this build prices");
  if (const report::JsonValue* fit = root.find("cache_fit"); fit != nullptr) {
    if (!fit->is_array()) r.fail("cache_fit must be an array");
    for (const auto& entry : fit->items()) {
      CacheCandidate c;
      c.cache_bytes =
          static_cast<std::uint64_t>(r.integer(entry, "cache_bytes", "cache_fit[]", 1, std::int64_t{1} << 34));
      const auto& errors = r.member(entry, "microbench_mean_abs_log_error", "cache_fit[]");
      if (!errors.is_object()) r.fail("cache_fit[].microbench_mean_abs_log_error must be an object");
      // Every model's error as recorded, retired models' too: the record of how the capacity was chosen.
      for (const auto& [model, error] : errors.members())
        c.mean_abs_log_error.emplace_back(model, r.number(errors, model, "cache_fit[]"));
      p.cache_fit.push_back(std::move(c));
    }
  }
  // The microbenchmarks the constants came from, so that a profile can be fitted again (after a
  // change of the model) from what the GPU measured, without the GPU.
  if (const report::JsonValue* benches = root.find("microbenchmarks"); benches != nullptr) {
    if (!benches->is_array()) r.fail("microbenchmarks must be an array");
    bool complete = true;
    for (const auto& b : benches->items()) {
      MicrobenchTiming t;
      const auto kind = r.integer(b, "kind", "microbenchmarks[]", 0, static_cast<int>(kLastMicrobenchKind));
      t.bench.kind = static_cast<MicrobenchKind>(kind);
      t.bench.n = static_cast<std::uint64_t>(r.integer(b, "n", "microbenchmarks[]", 1, std::int64_t{1} << 32));
      t.bench.stride = static_cast<std::uint32_t>(r.integer(b, "stride", "microbenchmarks[]", 1, 32));
      t.bench.repeats = static_cast<std::uint32_t>(r.integer(b, "repeats", "microbenchmarks[]", 0, 1 << 20));
      t.bench.element_bytes = static_cast<std::uint32_t>(r.integer(b, "element_bytes", "microbenchmarks[]", 4, 8));
      if (const report::JsonValue* cold = b.find("cold"); cold != nullptr) {
        if (!cold->is_bool()) r.fail("microbenchmarks[].cold must be true or false");
        t.bench.cold = cold->boolean();
      }
      if (const char* err = microbench_error(t.bench)) r.fail("microbenchmarks[" + t.bench.name() + "]: " + err);
      t.median_ms = r.number(b, "median_ms", "microbenchmarks[]");
      p.timings.push_back(t);
      // Its simulated counts, when the file records every stored count (files written before the
      // counts were data lack some): then its models can be priced on it without simulating.
      const report::JsonValue* counts = b.find("counts");
      complete = complete && counts != nullptr && counts->is_object();
      RunCounts c;
      for (std::size_t i = 0; complete && i < count_fields().size(); ++i) {
        const CountField& f = count_fields()[i];
        if (!f.stored) continue;
        if (counts->find(f.name) == nullptr) {
          complete = false;
          break;
        }
        set_count(c, i,
                  static_cast<std::uint64_t>(r.integer(*counts, f.name, "microbenchmarks[].counts", 0,
                                                       std::numeric_limits<std::int64_t>::max())));
      }
      p.timing_counts.push_back(c);
    }
    if (!complete) p.timing_counts.clear();
  }
  if (const report::JsonValue* passes = root.find("calibration_passes"); passes != nullptr) {
    if (!passes->is_array()) r.fail("calibration_passes must be an array");
    for (const auto& entry : passes->items()) {
      CalibrationPass pass;
      pass.cache_bytes =
          static_cast<std::uint64_t>(r.integer(entry, "cache_bytes", "calibration_passes[]", 1, std::int64_t{1} << 34));
      pass.chosen = r.text(entry, "chosen", "calibration_passes[]");
      const auto& constants = r.member(entry, "constants", "calibration_passes[]");
      if (!constants.is_array()) r.fail("calibration_passes[].constants must be an array");
      for (const auto& c : constants.items())
        pass.constants.push_back({r.text(c, "model", "calibration_passes[].constants[]"),
                                  r.text(c, "constant", "calibration_passes[].constants[]"),
                                  r.number(c, "ms", "calibration_passes[].constants[]")});
      p.passes.push_back(std::move(pass));
    }
  }
  if (const report::JsonValue* term = root.find("instruction_term"); term != nullptr) {
    InstructionTerm t;
    t.fitted_on = r.text(*term, "fitted_on", "instruction_term");
    const auto setting = [&](const char* key) {
      const std::string where = std::string("instruction_term.") + key;
      const report::JsonValue& v = r.member(*term, key, "instruction_term");
      SettingCosts c;
      const std::string form = r.text(v, "form", where);
      if (form != to_string(CostForm::Additive) && form != to_string(CostForm::Bound))
        r.fail(where + ".form must be additive or bound");
      c.form = form == to_string(CostForm::Bound) ? CostForm::Bound : CostForm::Additive;
      c.instruction = r.number(v, "cycles_per_instruction", where);
      c.access = r.number(v, "cycles_per_access", where);
      c.extra_slot = r.number(v, "cycles_per_extra_slot", where);
      c.fitted = r.number(v, "fitted_median_abs_error", where);
      c.held_out = r.number(v, "heldout_median_abs_error", where);
      c.held_out_other_form = r.number(v, "heldout_median_abs_error_other_form", where);
      c.worst_held_out = r.number(v, "heldout_worst_factor", where);
      c.interval_factor = r.number(v, "interval_factor", where);
      if (c.worst_held_out < 1 || c.interval_factor < 1)
        r.fail(where + ": heldout_worst_factor and interval_factor must be at least 1");
      c.samples = static_cast<int>(r.integer(v, "benches", where, 1, 1 << 20));
      return c;
    };
    t.costs.lone = setting("lone");
    t.costs.many = setting("many");
    t.costs.lone_outside = r.number(*term, "lone_outside_median_abs_error", "instruction_term");
    t.costs.lone_outside_samples =
        static_cast<int>(r.integer(*term, "lone_outside_benches", "instruction_term", 0, 1 << 20));
    p.instruction_term = std::move(t);
  }
  // The cross-validation the fit recorded (model_choice.h), read back as it was made: the default
  // model and the interval of every prediction from this profile.
  if (const report::JsonValue* mc = root.find("model_choice"); mc != nullptr) {
    const auto& held = r.member(*mc, "models", "model_choice");
    if (!held.is_array() || held.items().empty()) r.fail("model_choice.models must be a non-empty array");
    for (const auto& e : held.items()) {
      HeldOutError h;
      h.model = r.text(e, "model", "model_choice.models[]");
      h.median_abs_error = r.number(e, "heldout_median_abs_error", "model_choice.models[]");
      h.worst_factor = r.number(e, "heldout_worst_factor", "model_choice.models[]");
      h.interval_factor = r.number(e, "interval_factor", "model_choice.models[]");
      if (h.worst_factor < 1 || h.interval_factor < 1)
        r.fail("model_choice.models[]: heldout_worst_factor and interval_factor must be at least 1");
      h.patterns = static_cast<std::size_t>(r.integer(e, "patterns", "model_choice.models[]", 1, 1 << 20));
      p.choice.models.push_back(std::move(h));
    }
    p.choice.chosen = r.text(*mc, "chosen", "model_choice");
    const bool priced =
        std::any_of(p.models.begin(), p.models.end(), [&](const CostModel& m) { return m.name == p.choice.chosen; });
    if (p.choice.of(p.choice.chosen) == nullptr || !priced)
      r.fail("model_choice.chosen: '" + p.choice.chosen.substr(0, 40) +
             "' is not a cross-validated model of the profile");
  }
  return p;
}

std::filesystem::path write_profile_from_calibration(const std::filesystem::path& out_dir, const std::string& device,
                                                     const GpuFacts& gpu, const std::vector<MicrobenchTiming>& timings,
                                                     unsigned threads,
                                                     const std::vector<std::vector<MicrobenchTiming>>& passes) {
  char date[11] = {};
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  GpuProfile p = profile_skeleton(gpu, device, date);
  fit_cache_capacity(p, timings, threads, passes);
  const std::filesystem::path file = out_dir / ("profile-" + device + ".json");
  write_file_atomically(file.string(), profile_json(p), "--out");
  return file;
}

}  // namespace mmsim::predict
