#include "experiments/results_readme.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <sstream>

#include "experiments/results.h"
#include "io/input_error.h"
#include "io/input_file.h"
#include "io/quote.h"
#include "report/csv.h"
#include "report/table.h"

namespace mmsim::experiments {

namespace fs = std::filesystem;

namespace {

// The papers in the order of docs/references.md, each with the title of its section here and in
// docs/families.md (the same heading, so that the link below lands on it); "" is mmsim's own.
struct Section {
  std::string key, title;
};
const std::vector<Section>& sections() {
  static const std::vector<Section> all{
      {"KNI", "KNI: offline permutation on the HMM"}, {"NMI", "NMI: the RAW, RAS and RAP layouts"},
      {"BDS", "BDS: BPC and BMMC permutations"},      {"AS", "AS: sorting and permuting without bank conflicts"},
      {"GL", "GL: enumeration-scheme transposition"}, {"", "mmsim's own measurements on the GPU"},
  };
  return all;
}

// The anchor a Markdown heading gets on GitHub: lower case, punctuation but '-' and '_' dropped,
// spaces turned into '-'.
std::string anchor(const std::string& heading) {
  std::string out;
  for (unsigned char c : heading) {
    if (std::isalnum(c) || c == '-' || c == '_')
      out += static_cast<char>(std::tolower(c));
    else if (c == ' ')
      out += '-';
  }
  return out;
}

std::string heading(const ResultEntry& e) {
  const std::string kind = e.kind == ResultKind::Table ? "table" : "figure";
  return e.name + (e.platform == Platform::Gpu ? " (GPU " + kind + ")" : " (" + kind + ")");
}

std::string cell(std::string s) {
  for (std::size_t at = s.find('|'); at != std::string::npos; at = s.find('|', at + 2)) s.replace(at, 1, "\\|");
  return s.empty() ? " " : s;
}

std::string row(const std::vector<std::string>& fields) {
  std::string s = "|";
  for (const auto& f : fields) s += " " + cell(f) + " |";
  return s + "\n";
}

// A results CSV, through the one CSV reader (report/csv.h). The largest CSV an excerpt reads is a
// few hundred kilobytes; 64 MiB bounds a wrong file.
report::CsvTable read_csv(const std::string& path) {
  InputFile in("--out", path, std::uint64_t{1} << 26, "a results table");
  try {
    return report::CsvTable(in.stream(), path);
  } catch (const report::CsvError& e) {
    throw InputError(e.what());
  }
}

// The excerpt's rows from `path`, each as its keys then its columns; `label`, when not empty,
// goes first (the GPU). The registry names columns by their labels, as the Markdown heads them; the
// CSV by their keys (report::column_key).
std::vector<std::vector<std::string>> excerpt_rows(const Excerpt& x, const std::string& path,
                                                   const std::string& label) {
  const report::CsvTable csv = read_csv(path);
  std::vector<std::string> keys, shown;
  for (const auto& k : x.keys) keys.push_back(report::column_key(k));
  for (const auto& c : x.columns) shown.push_back(report::column_key(c));
  try {
    csv.require(keys);
    csv.require(shown);
  } catch (const report::CsvError& e) {
    throw InputError(e.what());
  }
  std::vector<std::vector<std::string>> out;
  for (const auto& want : x.rows) {
    const report::CsvTable::Row* found = nullptr;
    int matches = 0;
    for (const auto& r : csv.rows()) {
      bool same = true;
      for (std::size_t i = 0; i < keys.size() && same; ++i) same = r[keys[i]] == want.at(i);
      if (same) {
        if (found == nullptr) found = &r;
        ++matches;
      }
    }
    if (matches == 0 || (matches > 1 && !x.first_of_each)) {
      std::string which;
      for (std::size_t i = 0; i < keys.size(); ++i) which += (i ? ", " : "") + x.keys[i] + " = " + want.at(i);
      throw InputError(path + ": " + (matches == 0 ? "no row" : std::to_string(matches) + " rows") + " with " + which);
    }
    std::vector<std::string> r;
    if (!label.empty()) r.push_back(label);
    for (const auto& k : keys) r.push_back((*found)[k]);
    for (const auto& c : shown) r.push_back((*found)[c]);
    out.push_back(std::move(r));
  }
  return out;
}

std::string excerpt_head(const Excerpt& x, bool gpu) {
  std::vector<std::string> head;
  if (gpu) head.push_back("GPU");
  head.insert(head.end(), x.keys.begin(), x.keys.end());
  head.insert(head.end(), x.columns.begin(), x.columns.end());
  std::string s = row(head) + "|";
  for (std::size_t i = 0; i < head.size(); ++i) s += "---|";
  return s + "\n";
}

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

// "gpu-h100" -> "h100" (the device's short name) and "H100" (its label).
std::string device_of(const std::string& folder) { return folder.substr(4); }
std::string label_of(const std::string& folder) {
  std::string s = device_of(folder);
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Links to the entry's files under `prefix` (a folder of the page, "" or "gpu-h100/"), and the
// names of those that are absent.
std::string file_links(const ResultEntry& e, const std::string& dir, const std::string& prefix,
                       const std::string& device) {
  std::string links, absent;
  for (const auto& f : e.files) {
    const std::string name = for_device(f, device);
    if (exists(dir + "/" + prefix + name))
      links += (links.empty() ? "" : ", ") + std::string("[") + name + "](" + prefix + name + ")";
    else
      absent += (absent.empty() ? "" : ", ") + name;
  }
  if (links.empty()) return "absent: " + absent;
  return absent.empty() ? links : links + " (absent: " + absent + ")";
}

std::string first_png(const ResultEntry& e) {
  for (const auto& f : e.files)
    if (f.size() > 4 && f.compare(f.size() - 4, 4, ".png") == 0) return f;
  return "";
}

void write_entry(std::ostream& o, const ResultEntry& e, const std::string& dir,
                 const std::vector<std::string>& devices) {
  const bool gpu = e.platform == Platform::Gpu;
  o << "### " << heading(e) << "\n\n";
  if (e.paper.empty()) {
    std::string d = e.description;
    d[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(d[0])));
    o << d << ".\n\n";
  } else {
    o << e.paper << ": " << e.description << ".\n\n";
  }
  if (gpu) {
    o << "Made by `" << e.command << "`";
    if (!e.stage.empty()) o << " (stage `" << e.stage << "` of `./mmsim.sh gpu-reproduce`)";
    o << ".\n";
    if (devices.empty()) o << "No GPU folder here yet.\n";
    for (const auto& d : devices) o << "- " << label_of(d) << ": " << file_links(e, dir, d + "/", device_of(d)) << "\n";
  } else {
    o << "Made by `" << e.command << "`"
      << (e.table || e.figure ? " (and by `mmsim reproduce`)" : " (not by `mmsim reproduce`)") << ".\n"
      << "Files: " << file_links(e, dir, "", "") << ".\n";
  }
  for (const auto& x : e.excerpts) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> missing;
    if (gpu) {
      for (const auto& d : devices) {
        const std::string path = dir + "/" + d + "/" + for_device(x.csv, device_of(d));
        if (!exists(path)) {
          missing.push_back(d + "/" + for_device(x.csv, device_of(d)));
          continue;
        }
        for (auto& r : excerpt_rows(x, path, label_of(d))) rows.push_back(std::move(r));
      }
    } else if (exists(dir + "/" + x.csv)) {
      rows = excerpt_rows(x, dir + "/" + x.csv, "");
    } else {
      missing.push_back(x.csv);
    }
    if (!rows.empty()) {
      o << "\nFrom `" << (gpu ? "gpu-<device>/" : "") << x.csv << "`:\n\n" << excerpt_head(x, gpu);
      for (const auto& r : rows) o << row(r);
    }
    for (const auto& m : missing) o << "\n" << m << " is not here yet.\n";
  }
  if (e.kind == ResultKind::Figure) {
    const std::string png = first_png(e);
    if (!gpu && !png.empty() && exists(dir + "/" + png)) o << "\n![" << e.name << "](" << png << ")\n";
    for (const auto& d : devices)
      if (!png.empty() && exists(dir + "/" + d + "/" + png))
        o << "\n![" << e.name << " on the " << label_of(d) << "](" << d << "/" << png << ")\n";
  }
  o << "\n";
}

}  // namespace

std::vector<std::string> device_folders(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("gpu-", 0) == 0 && name.size() > 4 && it->is_directory(ec)) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string results_readme(const std::string& dir) {
  const std::vector<std::string> devices = device_folders(dir);
  std::ostringstream o;
  o << "# Results\n\n"
    << "Every table and figure that mmsim reproduces, paper by paper: the command that made it, its files, and a\n"
    << "few of its cells read from its CSV, with the paper's value beside ours where the CSV carries it. This page\n"
    << "is written by `mmsim reproduce` (alone: `mmsim reproduce --readme --out results`) from the registry\n"
    << "`experiments/results.cpp` and the files of this folder, and a test checks that it is up to date: edit\n"
    << "the registry, not this page.\n\n"
    << "- On any machine, `./mmsim.sh reproduce` (that is, `mmsim reproduce --out results`) writes every CPU\n"
    << "  table as NAME.md, NAME.csv and NAME.json and every CPU figure with its data, gnuplot scripts, PNG and\n"
    << "  SVG, then [manifest.json](manifest.json): every file it made, with its size and SHA-256, and the\n"
    << "  command and version that made them (docs/report.md); then this page.\n"
    << "- On a CUDA GPU machine, `./mmsim.sh gpu-reproduce` writes the GPU's tables into `gpu-<device>/`";
  if (devices.empty()) {
    o << " (none here yet).\n";
  } else {
    o << "\n  (";
    for (std::size_t i = 0; i < devices.size(); ++i)
      o << (i ? ", " : "") << "[" << devices[i] << "/](" << devices[i] << "/)";
    o << "), stage by stage (`MMSIM_GPU_STAGES`); the GPU's figures are drawn from its CSVs by the\n"
      << "  scripts named below, wherever gnuplot is.\n";
  }
  o << "\nHow each family is run and read: [docs/families.md](../docs/families.md). The GPU backend and what it\n"
    << "measured: [docs/gpu.md](../docs/gpu.md). Predicting the GPU from the simulator:\n"
    << "[docs/prediction.md](../docs/prediction.md). The papers behind the keys: "
    << "[docs/references.md](../docs/references.md).\n\n";

  o << "## Index\n\n| paper | table or figure | where | command |\n|---|---|---|---|\n";
  for (const auto& s : sections())
    for (const auto& e : results())
      if (paper_key(e) == s.key)
        o << row({e.paper.empty() ? "mmsim's own" : e.paper, "[" + heading(e) + "](#" + anchor(heading(e)) + ")",
                  e.platform == Platform::Gpu ? "GPU" : "CPU", "`" + e.command + "`"});
  o << "\n";

  for (const auto& s : sections()) {
    o << "## " << s.title << "\n\n";
    if (s.key.empty())
      o << "These reproduce no paper: [docs/gpu.md](../docs/gpu.md) and "
        << "[docs/prediction.md](../docs/prediction.md) say what they are for.\n\n";
    else
      o << "How it is run and read: [docs/families.md](../docs/families.md#" << anchor(s.title) << ").\n\n";
    for (const auto& e : results())
      if (paper_key(e) == s.key) write_entry(o, e, dir, devices);
  }
  std::string text = o.str();
  while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n') text.pop_back();
  return text;
}

}  // namespace mmsim::experiments
