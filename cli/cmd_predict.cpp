// `mmsim predict ALGORITHM [run options] --profile FILE`: GPU time predicted from simulation. The
// algorithm runs on the profile's machine with the GPU-like global memory (models/gpu_memory), and
// the profile's constants price what it moved (predict/). No GPU needed: a build without CUDA
// predicts from the profile file alone. `mmsim predict --kernel FILE --profile P` predicts the
// kernels of a kernel file (docs/kernel-files.md) the same way, per kernel and per step
// (predict/kernel_prediction.h; docs/your-kernel.md).
#include <cstdio>
#include <map>

#include "algorithms/registry.h"
#include "cli/common.h"
#include "cli/kernel_option.h"
#include "cli/profile_option.h"
#include "cli/sampling_option.h"
#include "kernels/kernel_file.h"
#include "predict/kernel_prediction.h"
#include "predict/sampled.h"
#include "predict/simulate.h"

namespace mmsim::cli {

namespace {

struct PredictOptions {
  const AlgorithmEntry* entry = nullptr;
  CLI::App* command = nullptr;
  std::vector<std::pair<const ParamSpec*, CLI::Option*>> options;
  std::vector<std::unique_ptr<std::string>> storage;
  std::string profile, type = "float", model;  // model: "" for the profile's choice
  bool json = false;
  SamplingOption sampling;
  ThreadsOption threads;
};

bool is_machine_option(const std::string& name) { return name == "w" || name == "l" || name == "L" || name == "k"; }

std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

int predict_one(const PredictOptions& a) {
  std::map<std::string, std::string> given;
  for (const auto& [spec, opt] : a.options)
    if (opt->count() > 0) given[spec->name] = spec->kind == ParamKind::Flag ? "true" : opt->as<std::string>();
  const predict::GpuProfile profile = read_profile_option(a.profile);
  const std::string model = a.model.empty() ? profile.default_model() : a.model;
  // Before simulating: the model must be one the profile prices (a profile fitted before the
  // model was added has none of that name).
  try {
    profile.model(model);
  } catch (const std::invalid_argument& e) {
    throw InputError("--model: " + a.profile + ": " + e.what() + "; or pick one of its models with --model");
  }
  const std::uint32_t bytes = a.type == "double" ? 8 : 4;
  // The command line's text, parsed once here into typed values.
  ParamValues params = parse_params(*a.entry, given);
  predict::SampledAlgorithmCounts run;
  const bool exact = a.sampling.exact;
  if (exact) {
    auto whole = predict::count_algorithm(profile, *a.entry, std::move(params), bytes, a.threads.value());
    run.counts.counts = whole.counts;
    run.report = std::move(whole.report);
  } else {
    run = predict::count_algorithm_sampled(profile, *a.entry, std::move(params), bytes, a.threads.value(),
                                           a.sampling.sampling);
  }
  const predict::SampledCounts& sampled = run.counts;
  const predict::RunCounts& c = sampled.counts;
  const predict::CostModel& cost = profile.model(model);
  const double ms = predict::predicted_ms(cost, c);
  // The interval the cross-validation on the microbenchmarks gives this model (model_choice.h).
  const predict::HeldOutError* held = profile.choice.of(model);
  // " +- h" after a sampled count: half the width of its 95 % interval.
  const auto pm = [&](std::string_view name) {
    const double h = sampled.half_width(predict::count_fields()[*predict::count_index(name)]);
    return h > 0 ? " +- " + fixed(h, 3) : std::string();
  };

  if (a.json) {
    report::Json out = report::Json::object();
    out.set("algorithm", a.entry->name)
        .set("device", profile.gpu.name)
        .set("profile", a.profile)
        .set("type", a.type)
        .set("n", run.report.n)
        .set("model", model)
        .set("predicted_ms", ms);
    if (held != nullptr) {
      report::Json interval = report::Json::array();
      interval.push(ms / held->interval_factor).push(ms * held->interval_factor);
      out.set("interval_ms", std::move(interval)).set("interval_coverage", predict::kIntervalCoverage);
    }
    out.set("predicted_ms_ci95", sampled.half_width_ms(cost))
        .set("sampling", predict::sampling_json(sampled, exact, a.sampling.sampling))
        .set("time_units", static_cast<long long>(run.report.stats.time_units))
        .set("counts", predict::counts_json(c))
        .set("counts_ci95", predict::counts_ci95_json(sampled))
        .set("predicted_ms_by_model", predict::predictions_json(profile, c))
        .set("correct", run.report.correct);
    print_json(out);
  } else {
    std::cout << a.entry->name << " on " << profile.gpu.name << " (" << profile.device << " profile of " << profile.date
              << "), " << a.type << ", n = " << run.report.n << "\n"
              << "predicted_ms " << fixed(ms, 4) << "  (cost model " << model << ")"
              << predict::ms_interval_words(sampled.shift, sampled.half_width_ms(cost)) << "\n";
    if (held != nullptr)
      std::cout << "interval_ms " << fixed(ms / held->interval_factor, 4) << " " << fixed(ms * held->interval_factor, 4)
                << "  (" << fixed(100 * predict::kIntervalCoverage, 3)
                << " % of the microbenchmarks fall within it when their pattern is left out of the fit)\n";
    else
      std::cout
          << "interval_ms none  (the profile records no cross-validation: fit it again with mmsim validate --refit)\n";
    std::cout << "from the simulated run (the second of two; the first warms the cache)"
              << predict::sampling_words(sampled, exact) << ":\n"
              << "  time units " << run.report.stats.time_units << ", kernels " << c.launches << ", UMM slots "
              << c.memory.umm_groups << "\n"
              << "  sectors read " << c.memory.read_sectors << ", written " << c.memory.write_sectors << "; L2 hits "
              << c.memory.hits << pm("l2_hits") << "; DRAM reads " << c.memory.dram_reads << pm("dram_reads")
              << " (fills " << c.memory.fills << pm("dram_fills") << "), DRAM writes " << c.memory.dram_writes
              << pm("dram_writes") << ", DRAM rows opened " << c.memory.activations << pm("dram_activations")
              << " (for reads " << c.memory.read_activations << pm("dram_read_activations") << ", for write-backs "
              << c.memory.write_activations << pm("dram_write_activations") << ", of which merging a partial sector "
              << c.memory.rmw_activations << pm("dram_rmw_activations") << ")\n"
              << "  shared-memory time units " << c.shared_time_units << "\n"
              << "every cost model:";
    for (const auto& f : profile.models)
      std::cout << " " << f.name << " " << fixed(predict::predicted_ms(f, c), 4) << " ms;";
    std::cout << "\ncorrect " << (run.report.correct ? "yes" : "NO") << "\n";
  }
  return run.report.correct ? kOk : kCheckFailed;
}

// A kernel file's options, given to `predict` itself.
struct KernelFileOptions {
  std::string file, profile, model;
  bool json = false;
  SamplingOption sampling;
  ThreadsOption threads;
};

int predict_kernel_file(const KernelFileOptions& o) {
  if (o.profile.empty()) throw InputError("predict: --kernel needs --profile FILE (a GPU profile)");
  const kernels::ProgramSpec spec = kernels::read_kernel_file("--kernel", o.file);
  const predict::GpuProfile profile = read_profile_option(o.profile);
  predict::ProgramPrediction p =
      predict::predict_program(profile, spec, o.model, o.threads.value(), o.sampling.value());
  p.sampling = o.sampling.sampling;  // with --exact too: the JSON names the options given, as predict ALGORITHM's
  if (o.json) {
    report::Json out = predict::prediction_json(p);
    out.set("profile_file", o.profile).set("predicted_ms_by_model", predict::predictions_json(profile, p));
    print_json(out);
  } else {
    std::cout << report::to_markdown(predict::kernels_table(p)) << "\n" << report::to_markdown(predict::steps_table(p));
  }
  return kOk;
}

}  // namespace

Runner add_predict_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "predict", "GPU time of an HMM algorithm, predicted by simulation from a GPU profile (mmsim gpu calibrate)");
  cmd->require_subcommand(0, 1);
  auto kernel = std::make_shared<KernelFileOptions>();
  auto* kernel_option =
      cmd->add_option("--kernel", kernel->file,
                      "predict the kernels of this kernel file instead of an algorithm (docs/kernel-files.md), per "
                      "kernel and per step")
          ->type_name("FILE");
  cmd->add_option("--profile", kernel->profile, "with --kernel: the GPU profile");
  cmd->add_option("--model", kernel->model, "with --kernel: cost model (default: rmw-rows)");
  cmd->add_flag("--json", kernel->json, "with --kernel: print one JSON object");
  kernel->sampling.add_to(*cmd, "the kernels' run (with --kernel)");
  kernel->threads.add_to(*cmd, "with --kernel: host threads");
  auto all = std::make_shared<std::vector<std::unique_ptr<PredictOptions>>>();
  for (const auto& entry : algorithms()) {
    if (entry.machine != ModelKind::Hmm) continue;
    auto a = std::make_unique<PredictOptions>();
    a->entry = &entry;
    a->command = cmd->add_subcommand(entry.name, entry.description);
    for (const auto& spec : entry.params) {
      if (is_machine_option(spec.name)) continue;  // the profile's machine
      a->storage.push_back(std::make_unique<std::string>());
      CLI::Option* o = spec.kind == ParamKind::Flag ? a->command->add_flag(spec.flags, spec.help)
                                                    : a->command->add_option(spec.flags, *a->storage.back(),
                                                                             spec.help + " [" + spec.rule() + "]");
      if (const auto d = spec.default_text(); d && spec.kind != ParamKind::Flag) o->default_str(*d);
      a->options.emplace_back(&spec, o);
    }
    a->command->add_option("--profile", a->profile, "the GPU profile (results/gpu-<device>/profile-<device>.json)")
        ->required();
    a->command->add_option("--type", a->type, "element type of the data")
        ->check(CLI::IsMember({"float", "double"}))
        ->capture_default_str();
    a->command->add_option("--model", a->model,
                           "cost model: one the profile holds (papers, dram-rows, rmw-rows); default: the one the "
                           "profile's cross-validation chose");
    a->command->add_flag("--json", a->json, "print one JSON object");
    a->sampling.add_to(*a->command, "the run");
    a->threads.add_to(*a->command, "host threads (the offline schedule, the shared-memory rounds)");
    all->push_back(std::move(a));
  }
  cmd->allow_extras();
  for (auto& a : *all) a->command->allow_extras(false);
  return [cmd, all, kernel, kernel_option] {
    if (const auto status = algorithm_or_kernel(
            *cmd, *all, *kernel_option, "predicts", [](const PredictOptions& a) { return predict_one(a); },
            [&kernel] { return predict_kernel_file(*kernel); }))
      return *status;
    const auto rest = cmd->remaining();
    if (rest.empty()) throw InputError("predict: name an HMM algorithm (see mmsim list)");
    throw InputError("predict: unknown or non-HMM algorithm " + quote(rest.front()) + " (see mmsim list)");
  };
}

}  // namespace mmsim::cli
