// `mmsim table1-bounds --profile FILE [--measured DIR]`: every GPU run of kasagi-t2.csv that
// implements a row of KNI Table 1, beside that row's bound in time units on the profile's machine
// (predict/validate/table1_bounds.h). `mmsim fit-bounds table1` fits its CSV and
// scripts/gpu_table1_figures.sh draws the fit. Needs no GPU.
#include <filesystem>

#include "cli/common.h"
#include "cli/profile_option.h"
#include "io/output_file.h"
#include "predict/validate/table1_bounds.h"
#include "sim/workers.h"

namespace mmsim::cli {

Runner add_table1_bounds_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "table1-bounds",
      "GPU times measured (mmsim gpu reproduce) beside KNI Table 1's bounds on a GPU profile's machine");
  struct Opts {
    std::string profile, measured = "results/gpu-<device>", format = "md", out;
    std::uint64_t seed = 1;
    ThreadsOption threads;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--profile", o->profile, "the GPU profile (mmsim gpu calibrate): its machine's w, l, L and k")
      ->required();
  cmd->add_option("--measured", o->measured, "folder of the GPU tables (kasagi-t2.csv)")->capture_default_str();
  add_integer_option(*cmd, o->seed, seed_param());
  o->threads.add_to(*cmd, "host threads (one permutation's D_w each)");
  cmd->add_option("--format", o->format, "md, csv or json")
      ->check(CLI::IsMember({"md", "csv", "json"}))
      ->capture_default_str();
  cmd->add_option("--out", o->out, "also write table1-bounds.{md,csv} to this folder");
  return [o] {
    predict::GpuProfile profile = read_profile_option(o->profile);
    // By default the measured tables are those of the profile's own device (results/gpu-h100, ...).
    if (o->measured == "results/gpu-<device>") o->measured = "results/gpu-" + profile.device;
    std::vector<predict::MeasuredRun> measured;
    try {
      const auto csv = std::filesystem::path(o->measured) / "kasagi-t2.csv";
      for (const char* type : {"float", "double"}) {
        auto some = predict::read_kasagi_measurements(csv, 1, UINT64_MAX, type);
        measured.insert(measured.end(), some.begin(), some.end());
      }
    } catch (const std::invalid_argument& e) {
      throw InputError(std::string("--measured: ") + e.what());
    }
    const unsigned threads = o->threads.value() == 0 ? hardware_threads() : o->threads.value();
    const auto runs = predict::table1_bounds(profile.machine, measured, o->seed, threads);
    const report::Table table = predict::table1_bounds_table(profile.machine, o->seed, runs);
    if (!o->out.empty()) {
      const std::filesystem::path dir(o->out);
      write_file_atomically((dir / "table1-bounds.md").string(), report::to_markdown(table), "--out");
      write_file_atomically((dir / "table1-bounds.csv").string(), report::to_csv(table), "--out");
    }
    std::cout << report::render(table, parse_format_option(o->format));
    return kOk;
  };
}

}  // namespace mmsim::cli
