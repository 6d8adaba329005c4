#include "experiments/reproduce.h"

#include <chrono>
#include <filesystem>
#include <stdexcept>

#include "algorithms/params.h"
#include "experiments/figures.h"
#include "experiments/results_readme.h"
#include "experiments/tables.h"
#include "io/input_error.h"
#include "report/build_info.h"
#include "report/json.h"
#include "report/sha256.h"

namespace mmsim::experiments {

report::Json manifest_json(const std::string& out_dir, const std::vector<std::string>& made,
                           const std::vector<std::string>& failed) {
  using report::Json;
  const report::BuildInfo b = report::build_info();
  Json files = Json::array();
  for (const auto& path : made) {
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(path, ec);
    if (ec) throw WriteError("reproduce: " + quote(path, 120) + " was not written: " + ec.message());
    std::string digest;
    try {
      digest = report::sha256_file_hex(path);
    } catch (const std::runtime_error& e) {
      throw WriteError("reproduce: " + std::string(e.what()));
    }
    files.push(Json::object()
                   .set("path", std::filesystem::path(path).filename().string())
                   .set("bytes", static_cast<unsigned long long>(bytes))
                   .set("sha256", digest));
  }
  Json checks = Json::array();
  for (const auto& f : failed) checks.push(f);
  return Json::object()
      .set("command", "mmsim reproduce --out " + out_dir)
      .set("version", b.version)
      .set("commit", b.commit)
      .set("cuda", b.cuda)
      .set("failed_checks", std::move(checks))
      .set("files", std::move(files));
}

std::vector<std::string> reproduce(const std::string& out_dir, std::ostream& progress) {
  std::vector<std::string> failed;
  const auto& ts = tables();
  const auto& fs = figures();
  const std::size_t total = ts.size() + fs.size();
  std::size_t done = 0;
  const auto step = [&](const std::string& what, auto&& fn) {
    const auto t0 = std::chrono::steady_clock::now();
    progress << "[" << ++done << "/" << total << "] " << what << " ..." << std::flush;
    try {
      fn();
    } catch (...) {
      // End the progress line, so that the error the command prints starts a line of its own.
      progress << " failed\n" << std::flush;
      throw;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress << " done (" << report::format_number(s, 3) << " s)\n" << std::flush;
  };
  std::vector<std::string> made;
  const auto write = [&](const std::string& name, const std::string& text) {
    write_file(out_dir + "/" + name, text);
    made.push_back(out_dir + "/" + name);
  };
  for (const auto& t : ts)
    step("table " + t.name, [&] {
      const report::Table table = t.make({});
      write(t.name + ".md", report::to_markdown(table));
      write(t.name + ".csv", report::to_csv(table));
      write(t.name + ".json", report::to_json(table).dump() + "\n");
      if (const auto bad = report::failed_rows(table)) failed.push_back("table " + t.name + ": " + *bad);
    });
  for (const auto& f : fs)
    step("figure " + f.name, [&] {
      for (auto& path : f.make(out_dir)) made.push_back(std::move(path));
    });
  write_file(out_dir + "/" + kManifestName, manifest_json(out_dir, made, failed).dump() + "\n");
  // The page that lists them, last: it reads the CSVs just written (and the GPU's folders beside them).
  write_file(out_dir + "/" + kResultsReadmeName, results_readme(out_dir));
  return failed;
}

}  // namespace mmsim::experiments
