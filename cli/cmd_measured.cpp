// The commands that read a GPU folder (results/gpu-<device>/, written by `mmsim gpu ...` and
// `mmsim table1-bounds`) and need no GPU: `mmsim fit-bounds table1|as DIR`, `mmsim fit-instructions
// DIR --profile P` (the instruction term into a profile), `mmsim gpu-speedups DIR`,
// `mmsim gpu-throughput DIR` and `mmsim gpu-goals DIR` (experiments/measured/measured.h). Each
// writes the files kept beside the CSVs and prints a tidy table (--format md, csv or json), or with
// --format gnuplot the variables its figure's kept script reads (scripts/gpu_*.gp;
// scripts/gpu_*_figures.sh runs gnuplot on them).
#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>

#include "cli/common.h"
#include "cli/profile_option.h"
#include "experiments/measured/measured.h"
#include "io/output_file.h"
#include "io/quote.h"
#include "predict/instruction_cost.h"
#include "predict/validate/family.h"

namespace mmsim::cli {

namespace {

namespace measured = experiments::measured;

struct FolderOptions {
  std::string dir, format = "md";
  void add_to(CLI::App* cmd, const std::string& reads) {
    cmd->add_option("DIR", dir, "the GPU's folder (" + reads + ")")->required();
    cmd->add_option("--format", format, "md, csv or json: the table; gnuplot: the variables of the figure's script")
        ->check(CLI::IsMember({"md", "csv", "json", "gnuplot"}))
        ->capture_default_str();
  }
  std::string path(const std::string& name) const { return (std::filesystem::path(dir) / name).string(); }
  report::CsvTable read(const std::string& name) const { return measured::read_measured_csv(path(name), "DIR"); }
  /// A CSV the figure draws when it is there.
  std::optional<report::CsvTable> read_if_there(const std::string& name) const {
    std::error_code ec;
    if (!std::filesystem::exists(path(name), ec)) return std::nullopt;
    return read(name);
  }
  void write(const std::string& name, const std::string& text) const { write_file_atomically(path(name), text, "DIR"); }
  int print(const report::Table& t, const experiments::GnuplotVariables& v) const {
    if (format == "gnuplot")
      std::cout << v.str();
    else
      std::cout << report::render(t, parse_format_option(format));
    return kOk;
  }
};

// The device and machine the figures name: from --profile, else from the folder's profile (the
// first profile-*.json, as `./mmsim.sh gpu-reproduce` makes one), else unknown.
measured::GpuIdentity gpu_identity(const std::string& dir, std::string profile) {
  if (profile.empty()) {
    std::vector<std::string> found;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("profile-", 0) == 0 && e.path().extension() == ".json") found.push_back(e.path().string());
    }
    if (found.empty()) return {};
    profile = *std::min_element(found.begin(), found.end());
  }
  const predict::GpuProfile p = read_profile_option(profile);
  const MachineParams& m = p.machine;
  return {p.gpu.name, "w = " + std::to_string(m.w) + ", l = " + std::to_string(m.l) + ", L = " + std::to_string(m.L) +
                          ", k = " + std::to_string(m.k)};
}

// GL's series from the folder's enumeration CSVs (the 3D and heat-map CSVs where they are there).
int throughput(const FolderOptions& f) {
  const report::CsvTable square = f.read("enumeration.csv");
  const auto cube = f.read_if_there("enumeration_3d.csv");
  const auto nvidia = f.read_if_there("enumeration_heatmap_nvidia.csv");
  const auto v1bf = f.read_if_there("enumeration_heatmap_v1bf.csv");
  const auto t = measured::enumeration_throughput(
      square, cube ? &*cube : nullptr, {{"nvidia", nvidia ? &*nvidia : nullptr}, {"v1bf", v1bf ? &*v1bf : nullptr}});
  return f.print(measured::throughput_table(t), measured::throughput_figure_variables(t, f.dir));
}

// A measured CSV's row that a reader refuses is the user's input: one line, status 2.
template <class F>
int refusing_bad_rows(F&& run) {
  try {
    return run();
  } catch (const report::CsvError& e) {
    throw InputError(e.what());
  }
}

// A command that reads a GPU folder (the files `reads` names) and prints one table or its figure's
// variables: `make` on the folder's options, a bad row refused as the user's input.
Runner folder_table_command(CLI::App& app, const std::string& name, const std::string& help, const std::string& reads,
                            std::function<int(const FolderOptions&)> make) {
  auto* cmd = app.add_subcommand(name, help);
  auto o = std::make_shared<FolderOptions>();
  o->add_to(cmd, reads);
  return [o, make = std::move(make)] { return refusing_bad_rows([&] { return make(*o); }); };
}

}  // namespace

Runner add_fit_bounds_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "fit-bounds",
      "fit ms = c x bound (KNI Table 1, table1) or cycles = c x bound (AS, as) to a GPU folder's times, through the "
      "origin; writes table1_bounds_fit.csv and the figures' .dat into the folder");
  struct Opts {
    std::string which, profile;
    FolderOptions folder;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("WHICH", o->which, "table1 (table1-bounds.csv) or as (as-gpu.csv)")
      ->required()
      ->check(CLI::IsMember({"table1", "as"}));
  o->folder.add_to(cmd, "table1-bounds.csv or as-gpu.csv");
  cmd->add_option("--profile", o->profile,
                  "the GPU profile whose device and machine the figure names [default: DIR's profile-*.json]");
  return [o] {
    return refusing_bad_rows([&] {
      const FolderOptions& f = o->folder;
      const auto gpu = [&] {
        return f.format == "gnuplot" ? gpu_identity(f.dir, o->profile) : measured::GpuIdentity{};
      };
      if (o->which == "table1") {
        const auto fits = measured::fit_table1_bounds(f.read("table1-bounds.csv"));
        const report::Table table = measured::table1_fit_table(fits);
        f.write("table1_bounds_fit.csv", report::to_csv(table));
        f.write("table1_bounds.dat", measured::table1_points_dat(fits));
        return f.print(table, measured::table1_figure_variables(fits, f.dir, gpu()));
      }
      const std::string csv = f.path("as-gpu.csv");
      const auto fits = measured::fit_as_bounds(f.read("as-gpu.csv"));
      for (const auto& b : measured::as_bounds()) {
        const auto it = std::find_if(fits.begin(), fits.end(), [&](const auto& fit) { return fit.bound == &b; });
        if (it == fits.end())
          std::fprintf(stderr, "mmsim fit-bounds: no checked %s rows in %s; %s not fitted\n", b.algorithm.c_str(),
                       csv.c_str(), b.figure.c_str());
        else
          f.write(b.figure + ".dat", measured::as_points_dat(*it, csv));
      }
      return f.print(measured::as_fit_table(fits), measured::as_figure_variables(fits, f.dir, gpu()));
    });
  };
}

Runner add_fit_instructions_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "fit-instructions",
      "fit the instruction term on a GPU folder's instruction microbenchmarks (instructions.csv, instructions-ncu.csv) "
      "and write it into a GPU profile, which then prices the instructions a kernel file declares (mmsim predict "
      "--kernel)");
  struct Opts {
    std::string dir, profile, out;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("DIR", o->dir, "the GPU's folder (instructions.csv, instructions-ncu.csv)")->required();
  cmd->add_option("--profile", o->profile,
                  "the GPU profile to carry the term; its SM clock and empty launch read the benches' times")
      ->required();
  cmd->add_option("--out", o->out, "the profile written [default: --profile, replaced]");
  return [o] {
    predict::GpuProfile profile = read_profile_option(o->profile);
    std::error_code ec;
    if (!std::filesystem::is_directory(o->dir, ec)) throw InputError("DIR: " + quote(o->dir) + " is not a folder");
    if (profile.gpu.sm_clock_khz <= 0) throw InputError("--profile: the profile gives no SM clock");
    predict::InstructionTerm term;
    try {
      term.costs = predict::validate::instruction_costs(o->dir, profile);
    } catch (const std::invalid_argument& e) {
      throw InputError(std::string("DIR: ") + e.what());
    }
    term.fitted_on = "the instruction microbenchmarks of " + o->dir + " (instructions.csv, instructions-ncu.csv)";
    profile.instruction_term = term;
    const std::string out = o->out.empty() ? o->profile : o->out;
    write_file_atomically(out, predict::profile_json(profile), o->out.empty() ? "--profile" : "--out");
    std::cout << predict::describe(term.costs) << "\n";
    std::fprintf(stderr, "mmsim fit-instructions: wrote the instruction term into %s\n", quote(out).c_str());
    return kOk;
  };
}

Runner add_gpu_speedups_command(CLI::App& app) {
  return folder_table_command(
      app, "gpu-speedups",
      "BDS Fig. 11 on the GPU: the speed-ups over the naive kernel recomputed from bmmc.csv's median times and "
      "checked against its own column; writes bmmc_speedup.dat into the folder",
      "bmmc.csv", [](const FolderOptions& o) {
        const auto s = measured::bmmc_speedups(o.read("bmmc.csv"));
        o.write("bmmc_speedup.dat", measured::speedup_dat(s, o.path("bmmc.csv")));
        return o.print(measured::speedup_table(s), measured::speedup_figure_variables(s, o.dir));
      });
}

Runner add_gpu_throughput_command(CLI::App& app) {
  return folder_table_command(
      app, "gpu-throughput",
      "GL on the GPU: the measured throughput of each transposition scheme by order, the 3D involutions and the "
      "out-of-place heat maps, from the folder's enumeration CSVs",
      "enumeration.csv, and where they are enumeration_3d.csv, enumeration_heatmap_{nvidia,v1bf}.csv", throughput);
}

Runner add_gpu_goals_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("gpu-goals",
                         "the goals of the scale work, held or missed cell by cell, from a GPU folder's bench.csv and "
                         "bmmc.csv (Markdown on standard output)");
  auto dir = std::make_shared<std::string>();
  cmd->add_option("DIR", *dir, "the GPU's folder (bench.csv, bmmc.csv)")->required();
  return [dir] {
    return refusing_bad_rows([&] {
      const auto path = [&](const char* name) { return (std::filesystem::path(*dir) / name).string(); };
      const auto bench = measured::read_measured_csv(path("bench.csv"), "DIR");
      const auto bmmc = measured::read_measured_csv(path("bmmc.csv"), "DIR");
      std::cout << measured::goals_page(bench, bmmc);
      return kOk;
    });
  };
}

}  // namespace mmsim::cli
