#include "experiments/reproduce.h"

#include <chrono>

#include "experiments/figures.h"
#include "experiments/tables.h"

namespace mmsim::experiments {

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
  for (const auto& t : ts)
    step("table " + t.name, [&] {
      const report::Table table = t.make({});
      write_file(out_dir + "/" + t.name + ".md", report::to_markdown(table));
      write_file(out_dir + "/" + t.name + ".csv", report::to_csv(table));
      write_file(out_dir + "/" + t.name + ".json", report::to_json(table).dump() + "\n");
      if (const auto bad = report::failed_rows(table)) failed.push_back("table " + t.name + ": " + *bad);
    });
  for (const auto& f : fs) step("figure " + f.name, [&] { f.make(out_dir); });
  return failed;
}

}  // namespace mmsim::experiments
