// `mmsim run as-sort|as-partition|as-permute` (and their baselines) on the matrix DMM of papers/003:
// -w banks = processors, -m columns, keys from --seed or --keys-file.
#include "algorithms/sorting/sorting.h"
#include "cli/run_family.h"

namespace mmsim::cli {

namespace {

report::Json to_json(const sorting::SortingRun& r, std::uint64_t seed, const std::string& source) {
  report::Json phases = report::Json::object();
  for (const auto& [name, t] : r.summary.phases) phases.set(name, static_cast<long long>(t));
  report::Json j = report::Json::object();
  j.set("algorithm", r.algorithm).set("w", r.w).set("m", static_cast<unsigned long long>(r.m));
  j.set("input", source).set("seed", static_cast<unsigned long long>(seed)).set("method", r.method);
  j.set("steps", static_cast<long long>(r.summary.steps)).set("time_units", static_cast<long long>(r.summary.time_units));
  j.set("cac_violations", static_cast<long long>(r.summary.cac_violations));
  j.set("max_congestion", r.summary.max_congestion);
  j.set("phases", std::move(phases));
  for (const auto& [name, v] : r.figures) j.set(name, static_cast<long long>(v));
  j.set("correct", r.correct);
  return j;
}

std::string to_text(const sorting::SortingRun& r, std::uint64_t seed, const std::string& source) {
  std::string s = r.algorithm + " on the DMM, w = " + std::to_string(r.w) + ", m = " + std::to_string(r.m) +
                  " (p = w, latency 1), input: " + source + (source == "random" ? " (seed " + std::to_string(seed) + ")" : "") + "\n";
  s += "method:         " + r.method + "\n";
  s += "steps:          " + std::to_string(r.summary.steps) + "\n";
  s += "time units:     " + std::to_string(r.summary.time_units) + "\n";
  s += "cac violations: " + std::to_string(r.summary.cac_violations) + " (max congestion " +
       std::to_string(r.summary.max_congestion) + ")\n";
  for (const auto& [name, v] : r.figures) s += name + ": " + std::to_string(v) + "\n";
  s += "phases (time units):\n";
  for (const auto& [name, t] : r.summary.phases) s += "  " + name + ": " + std::to_string(t) + "\n";
  s += std::string("correct:        ") + (r.correct ? "yes" : "NO") + "\n";
  return s;
}

}  // namespace

RunHandler add_sorting_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& common) {
  struct Opts {
    std::uint64_t m = 0;
    std::string keys_file;
  };
  auto o = std::make_shared<Opts>();
  run.add_option("-m,--columns", o->m, "as-*: columns of the w x m matrix (items per bank)");
  run.add_option("--keys-file", o->keys_file, "as-*: input file, one unsigned 32-bit value per line, w*m lines");
  return [o, common](const CommonRunOptions& c) -> std::optional<int> {
    if (!sorting::is_sorting_algorithm(c.algorithm)) return std::nullopt;
    const int w = c.machine.params.w;
    if (o->m == 0) throw InputError("-m: required, a power of two >= 1");
    sorting::check_shape(w, o->m);
    const std::string task = sorting::task_of(c.algorithm);
    const std::uint64_t n = static_cast<std::uint64_t>(w) * o->m;
    std::vector<Word> input;
    std::string source = "random";
    if (!o->keys_file.empty()) {
      input = sorting::read_keys_file(o->keys_file, n);
      source = o->keys_file;
      sorting::check_input(task, w, o->m, input, "--keys-file: " + o->keys_file);
    } else if (task == "sort") {
      input = sorting::random_keys(w, o->m, c.seed);
    } else if (task == "partition") {
      input = sorting::random_partition(w, o->m, c.seed);
    } else {
      input = sorting::random_permutation(w, o->m, c.seed);
    }
    const auto r = sorting::run_by_name(c.algorithm, w, o->m, input, c.seed);
    if (c.json) print_json(to_json(r, c.seed, source));
    else std::cout << to_text(r, c.seed, source);
    return r.correct ? kOk : kCheckFailed;
  };
}

}  // namespace mmsim::cli
