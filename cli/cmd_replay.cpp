// `mmsim replay TRACE [--profile P] [--model M] [--json]`: a traced CUDA run (include/mmsim/trace.cuh,
// docs/traced-runs.md) replayed on the simulated machine. The trace becomes a kernel description
// whose steps give their addresses thread by thread (kernels/trace_file.h); without a profile the
// simulator's rounds are grouped by source line (slots, congestion, bank conflicts); with one, the
// description is priced as a kernel file is (predict/kernel_prediction.h), per source line: sampled
// by default as `mmsim predict` samples a run (predict/sampled.h), every sector with --exact, with
// the interval the profile's cross-validation gives the whole run.
#include <map>
#include <tuple>

#include "cli/common.h"
#include "cli/profile_option.h"
#include "cli/sampling_option.h"
#include "kernels/trace_file.h"
#include "kernels/trace_report.h"
#include "predict/kernel_prediction.h"

namespace mmsim::cli {

namespace {

struct ReplayOptions {
  std::string trace, profile, model;
  bool json = false;
  SamplingOption sampling;
  ThreadsOption threads;
};

int replay_simulated(const ReplayOptions& o, const kernels::Trace& trace) {
  const kernels::ProgramSpec spec = kernels::trace_program(trace, kernels::trace_machine(trace));
  EngineOptions engine;
  engine.threads = o.threads.value();
  const kernels::ProgramRun run = kernels::run_program(spec, engine);
  if (o.json)
    print_json(kernels::lines_json(spec, run));
  else
    std::cout << report::to_markdown(kernels::lines_table(spec, run));
  return kOk;
}

// One source line's access of one array with one op, over its occurrences, as priced.
struct PricedLine {
  std::string kernel, line, array;
  Space memory = Space::Global;
  Op op = Op::Read;
  std::uint64_t steps = 0, requests = 0, warps = 0, slots = 0, bank_conflicts = 0;
  int congestion = 0;
  double hit_slots = 0, ms = 0;
};

int replay_predicted(const ReplayOptions& o, const kernels::Trace& trace) {
  const predict::GpuProfile profile = read_profile_option(o.profile);
  MachineParams machine = profile.machine;
  machine.extensions.widths = machine.extensions.atomics = true;
  const kernels::ProgramSpec spec = kernels::trace_program(trace, machine);
  predict::ProgramPrediction p =
      predict::predict_program(profile, spec, o.model, o.threads.value(), o.sampling.value());
  p.sampling = o.sampling.sampling;  // with --exact too: the JSON names the options given
  std::vector<PricedLine> lines;
  std::map<std::tuple<std::string, std::string, std::string, int>, std::size_t> at;
  for (const predict::KernelPrediction& k : p.kernels)
    for (const predict::StepPrediction& s : k.steps) {
      const auto key = std::make_tuple(s.kernel, s.step, s.array, static_cast<int>(s.op));
      auto it = at.find(key);
      if (it == at.end()) {
        it = at.emplace(key, lines.size()).first;
        lines.push_back({.kernel = s.kernel, .line = s.step, .array = s.array, .memory = s.memory, .op = s.op});
      }
      PricedLine& l = lines[it->second];
      ++l.steps;
      l.requests += s.requests;
      l.warps += s.warps;
      l.slots += s.slots;
      l.bank_conflicts += s.bank_conflicts.value_or(0);
      l.congestion = std::max(l.congestion, s.congestion);
      l.hit_slots += s.l2_hit_rate.value_or(0) * static_cast<double>(s.slots);
      l.ms += s.ms;
    }
  const auto per_warp = [](const PricedLine& l) {
    return l.warps ? static_cast<double>(l.slots) / static_cast<double>(l.warps) : 0.0;
  };
  const auto hit_rate = [](const PricedLine& l) { return l.slots ? l.hit_slots / static_cast<double>(l.slots) : 0.0; };
  const auto share = [&p](const PricedLine& l) { return p.ms > 0 ? l.ms / p.ms : 0.0; };
  if (o.json) {
    report::Json out = report::Json::object();
    out.set("source", p.source).set("profile", p.profile).set("model", p.model).set("predicted_ms", p.ms);
    predict::set_interval_json(out, p);
    out.set("predicted_ms_ci95", p.ms_ci95).set("sampling", predict::sampling_json(p.sampled, p.exact, p.sampling));
    report::Json rows = report::Json::array();
    for (const PricedLine& l : lines) {
      const bool shared = l.memory == Space::Shared;
      report::Json j = report::Json::object();
      j.set("kernel", l.kernel).set("line", l.line).set("array", l.array).set("memory", to_string(l.memory));
      j.set("op", to_string(l.op)).set("steps", l.steps).set("requests", l.requests).set("warps", l.warps);
      j.set("slots", l.slots).set("max_slots_of_a_warp", l.congestion);
      j.set("bank_conflicts", shared ? report::Json(l.bank_conflicts) : report::Json());
      j.set("sectors_per_request", shared ? report::Json() : report::Json(per_warp(l)));
      j.set("l2_hit_rate", shared ? report::Json() : report::Json(hit_rate(l)));
      j.set("ms", l.ms).set("share", share(l));
      rows.push(std::move(j));
    }
    out.set("lines", std::move(rows));
    print_json(out);
    return kOk;
  }
  report::Table t;
  t.title = "Trace " + trace.source + " on " + p.profile + ": predicted " + std::to_string(p.ms) + " ms (" + p.model +
            ")" + predict::ms_interval_words(p.sampled.shift, p.ms_ci95) + predict::interval_words(p);
  if (!p.exact)
    t.header = {"the second of two runs, the first warming the L2" + predict::sampling_words(p.sampled, p.exact)};
  t.columns = kernels::line_columns(
      {"warps", "slots", "max_slots_of_a_warp", "bank_conflicts", "sectors_per_request", "l2_hit_rate", "ms", "share"});
  for (const PricedLine& l : lines) {
    const bool shared = l.memory == Space::Shared;
    t.add_row({l.kernel, l.line, l.array, std::string(to_string(l.memory)), std::string(to_string(l.op)),
               static_cast<long long>(l.steps), static_cast<long long>(l.warps), static_cast<long long>(l.slots),
               static_cast<long long>(l.congestion),
               shared ? report::Cell(static_cast<long long>(l.bank_conflicts)) : report::Cell(),
               shared ? report::Cell() : report::Cell(per_warp(l)), shared ? report::Cell() : report::Cell(hit_rate(l)),
               l.ms, share(l)});
  }
  std::cout << report::to_markdown(t);
  return kOk;
}

}  // namespace

Runner add_replay_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "replay", "simulate a traced CUDA run (mmsim/trace.cuh) per source line; with --profile, predict its time");
  auto o = std::make_shared<ReplayOptions>();
  cmd->add_option("trace", o->trace, "the trace file a traced run wrote (docs/traced-runs.md)")->required();
  cmd->add_option("--profile", o->profile,
                  "a GPU profile (results/gpu-<device>/profile-<device>.json): predict milliseconds per line");
  cmd->add_option("--model", o->model, "with --profile: the cost model (the profile's default)");
  cmd->add_flag("--json", o->json, "print one JSON object");
  o->sampling.add_to(*cmd, "the replayed run (with --profile)");
  o->threads.add_to(*cmd, "host threads for round-synchronous rounds");
  return [o, cmd] {
    if (o->profile.empty() && !o->model.empty()) throw InputError("replay: --model prices with --profile only");
    for (const char* name : {"--exact", "--sample-budget", "--sample-seed"})
      if (o->profile.empty() && cmd->count(name) > 0)
        throw InputError(std::string("replay: ") + name + " samples a prediction, with --profile only");
    const kernels::Trace trace = kernels::read_trace_file("replay", o->trace);
    return o->profile.empty() ? replay_simulated(*o, trace) : replay_predicted(*o, trace);
  };
}

}  // namespace mmsim::cli
