// `mmsim reproduce` and `mmsim figure`: the tables and figures, written as files, and the page
// that lists them (results/README.md).
#include <cstdio>
#include <filesystem>

#include "cli/common.h"
#include "experiments/figures.h"
#include "experiments/reproduce.h"
#include "experiments/results.h"
#include "experiments/results_readme.h"
#include "io/output_path.h"

namespace mmsim::cli {

namespace {

// Every file reproduce writes that is already in the folder must be one it can replace (not a
// folder, not read-only): checked before the first line of progress, not found minutes later.
void check_existing_outputs(const std::string& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(out, ec)) return;  // a new folder holds nothing to replace
  for (const auto& e : experiments::results()) {
    if (e.platform != experiments::Platform::Cpu || !(e.table || e.figure)) continue;
    for (const std::string& name : e.files) {
      const std::string path = out + "/" + name;
      if (!fs::exists(fs::symlink_status(path, ec))) continue;
      if (name.back() == '/')
        check_output_folder("--out", path);
      else
        check_output_file("--out", path);
    }
  }
}

}  // namespace

Runner add_reproduce_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("reproduce", "write every table and figure to a folder (default results/)");
  auto out = std::make_shared<std::string>("results");
  auto readme = std::make_shared<bool>(false);
  cmd->add_option("--out", *out, "output folder")->capture_default_str();
  cmd->add_flag("--readme", *readme,
                "only write OUT/README.md, the list of every table and figure, from the files already in OUT "
                "(and its gpu-<device> folders)");
  return [out, readme] {
    if (*readme) {
      // It reads the folder's CSVs: a folder that is not there holds nothing to list.
      std::error_code ec;
      if (!std::filesystem::is_directory(*out, ec)) throw InputError("--out: " + quote(*out) + " is not a folder");
      check_output_folder("--out", *out);
      const std::string path = *out + "/" + experiments::kResultsReadmeName;
      experiments::write_file(path, experiments::results_readme(*out));
      std::cout << path << "\n";
      return kOk;
    }
    check_output_folder("--out", *out);
    check_existing_outputs(*out);
    const auto failed = experiments::reproduce(*out, std::cerr);
    if (failed.empty()) return kOk;
    // Every file was written; the command fails naming what did not check out, one line in all.
    std::string line = failed.front();
    if (failed.size() > 1) line += " (and " + std::to_string(failed.size() - 1) + " more)";
    std::fprintf(stderr, "mmsim: reproduce: %s\n", line.c_str());
    return kCheckFailed;
  };
}

Runner add_figure_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("figure", "draw one figure as PNG and SVG (with its CSV) through gnuplot");
  struct Opts {
    std::string name;
    std::string out = "results";
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("name", o->name, "figure name (see mmsim list)")->required();
  cmd->add_option("--out", o->out, "output folder")->capture_default_str();
  return [o] {
    const auto* f = experiments::find_figure(o->name);
    if (!f) throw InputError("figure: unknown " + quote(o->name) + " (see mmsim list)");
    check_output_folder("--out", o->out);
    for (const auto& path : f->make(o->out)) std::cout << path << "\n";
    return kOk;
  };
}

}  // namespace mmsim::cli
