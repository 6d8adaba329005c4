#include "experiments/ncu_csv.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "io/input_error.h"
#include "io/input_file.h"
#include "report/csv.h"

namespace mmsim::gpu {

namespace {

// An ncu CSV of the few launches mmsim profiles has some kilobytes; the bound leaves room for many more.
constexpr std::uint64_t kMaxNcuBytes = std::uint64_t{1} << 28;
constexpr std::size_t kMaxNcuLineChars = std::size_t{1} << 16;

}  // namespace

NcuLaunches read_ncu_launches(const std::string& path, const std::string& option) {
  InputFile file(option, path, kMaxNcuBytes, "an Nsight Compute CSV may have");
  LineReader lines(file.stream(), kMaxNcuLineChars);
  NcuLaunches by_id;
  std::size_t c_id = 0, c_kernel = 0, c_metric = 0, c_value = 0, width = 0;
  bool have_header = false;
  const std::string where = option + ": " + path;
  for (std::string line; lines.next(line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // ncu writes its records with every field quoted; its own messages ("==PROF== ...") are not records.
    if (line.empty() || line[0] != '"') continue;
    const std::string at = where + ", line " + std::to_string(lines.number()) + ": ";
    if (lines.too_long()) throw InputError(at + "longer than " + std::to_string(kMaxNcuLineChars) + " characters");
    std::string why;
    const auto fields = report::split_csv_record(line, &why);
    if (!fields) throw InputError(at + why);
    const auto& f = *fields;
    if (f[0] == "ID") {
      const auto column = [&](const char* name) {
        return static_cast<std::size_t>(std::find(f.begin(), f.end(), name) - f.begin());
      };
      c_id = column("ID"), c_kernel = column("Kernel Name"), c_metric = column("Metric Name");
      c_value = column("Metric Value"), width = f.size();
      have_header = c_metric < width && c_value < width;
      continue;
    }
    if (!have_header) continue;
    if (f.size() != width)
      throw InputError(at + std::to_string(f.size()) + " fields, the header has " + std::to_string(width));
    std::string v = f[c_value];
    v.erase(std::remove(v.begin(), v.end(), ','), v.end());
    try {
      NcuLaunch& launch = by_id[std::stoll(f[c_id])];
      if (c_kernel < width) launch.kernel = f[c_kernel];
      launch.metrics[f[c_metric]] = std::stod(v);
    } catch (const std::exception&) {
      throw InputError(where + ": a metric value is not a number ('" + f[c_value] + "')");
    }
  }
  if (!have_header) throw InputError(where + ": no Nsight Compute CSV header (ID, Metric Name, Metric Value)");
  return by_id;
}

NcuMetrics read_ncu_metrics(const std::string& path) {
  NcuMetrics out;
  for (auto& [id, launch] : read_ncu_launches(path)) out[id] = std::move(launch.metrics);
  return out;
}

}  // namespace mmsim::gpu
