// The registry of every reproduced table and figure (experiments/results.h) against the committed
// results/, and the page written from it (experiments/results_readme.h) on made-up folders.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "experiments/figures.h"
#include "experiments/results.h"
#include "experiments/results_readme.h"
#include "experiments/tables.h"
#include "io/input_error.h"
#include "report/json_reader.h"

using namespace mmsim;
using namespace mmsim::experiments;
namespace fs = std::filesystem;

namespace {

const fs::path kResults = fs::path(MMSIM_SOURCE_DIR) / "results";

struct TempFolder {
  fs::path path;
  TempFolder() {
    std::string t = (fs::temp_directory_path() / "mmsim-results-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempFolder() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
  }
};

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The names of a folder's entries, folders with a trailing '/'.
std::set<std::string> entries_of(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    out.insert(e.path().filename().string() + (e.is_directory() ? "/" : ""));
  return out;
}

// A KNI Table 1 CSV with the rows the registry shows, in made-up numbers; `extra` is appended.
std::string kasagi_t1_csv(const std::string& extra = "") {
  return "algorithm,permutation,time_units,closed_form,difference,async_time_units,correct\n"
         "d-designated,random,111,222,-111,99,yes\n"
         "transpose,transpose,3,3,0,2,yes\n"
         "column-wise,random (each column),5,5,0,4,yes\n"
         "scheduled,random,7,7,0,6,yes\n" +
         extra;
}

std::string message_of(const std::string& dir) {
  try {
    (void)results_readme(dir);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("every entry is named once for its kind and platform, and cites a paper of references.md or none") {
  const std::string references = read(fs::path(MMSIM_SOURCE_DIR) / "docs" / "references.md");
  std::set<std::string> seen;
  for (const auto& e : results()) {
    CAPTURE(e.name);
    const std::string key =
        e.name + (e.kind == ResultKind::Table ? " table" : " figure") + (e.platform == Platform::Gpu ? " gpu" : " cpu");
    CHECK(seen.insert(key).second);
    CHECK_FALSE(e.command.empty());
    CHECK_FALSE(e.files.empty());
    if (e.paper.empty()) {
      // Only the GPU's own measurements (prediction, goals, the run's record) reproduce no paper.
      CHECK(e.platform == Platform::Gpu);
    } else {
      CHECK(references.find("| " + paper_key(e) + " |") != std::string::npos);
    }
    // A driver is what `mmsim reproduce` runs: only CPU entries have one, and never two.
    CHECK_FALSE((e.table && e.figure));
    if (e.platform == Platform::Gpu) CHECK_FALSE((e.table || e.figure));
  }
}

TEST_CASE("tables() and figures() are the registry's CPU drivers, in its order, and find_* finds each") {
  std::vector<std::string> tables_in_registry, figures_in_registry, table_names, figure_names;
  for (const auto& e : results()) {
    if (e.table) tables_in_registry.push_back(e.name);
    if (e.figure) figures_in_registry.push_back(e.name);
  }
  for (const auto& t : tables()) {
    table_names.push_back(t.name);
    CHECK(find_table(t.name) == &t);
  }
  for (const auto& f : figures()) {
    figure_names.push_back(f.name);
    CHECK(find_figure(f.name) == &f);
  }
  CHECK(table_names == tables_in_registry);
  CHECK(figure_names == figures_in_registry);
  // The drivers `mmsim reproduce` ran before there was a registry: none was lost on the way.
  for (const char* name :
       {"rap-t1", "rap-t2", "rap-t3", "rap-t4", "enumeration-bands", "enumeration-tlb", "enumeration-3d",
        "bmmc-optimisations", "bmmc-sizes", "parm-sort", "kasagi-t1", "as-bounds", "as-bounds-theorem4"})
    CHECK_MESSAGE(find_table(name) != nullptr, name);
  for (const char* name :
       {"kasagi-fig4", "kasagi-fig6", "kasagi-fig7", "rap-congestion", "rap-lemma4", "rap-fixed-r", "enumeration-tlb",
        "enumeration-3d", "bmmc-optimisations", "bmmc-sizes", "as-bounds", "as-bounds-theorem4"})
    CHECK_MESSAGE(find_figure(name) != nullptr, name);
}

TEST_CASE("every CPU file the registry names is in results/, and every file there is named by an entry") {
  std::set<std::string> named;
  for (const auto& e : results())
    if (e.platform == Platform::Cpu)
      for (const auto& f : e.files) {
        CAPTURE(f);
        CHECK(fs::exists(kResults / f));
        named.insert(f);
      }
  for (const auto& f : entries_of(kResults)) {
    // The page and the manifest index the files; the GPU's folders are checked below.
    if (f == kResultsReadmeName || f == "manifest.json" || f.rfind("gpu-", 0) == 0) continue;
    CHECK_MESSAGE(named.count(f) == 1, f << " is in results/ but no entry of experiments/results.cpp names it");
  }
}

TEST_CASE("every file the committed manifest lists belongs to an entry that mmsim reproduce makes") {
  const report::JsonValue manifest = report::parse_json(read(kResults / "manifest.json"));
  std::set<std::string> made;
  for (const auto& e : results())
    if (e.table || e.figure)
      for (const auto& f : e.files) made.insert(f);
  const report::JsonValue* files = nullptr;
  for (const auto& [key, value] : manifest.members())
    if (key == "files") files = &value;
  REQUIRE(files != nullptr);
  REQUIRE_FALSE(files->items().empty());
  for (const auto& file : files->items())
    for (const auto& [key, value] : file.members())
      if (key == "path") CHECK_MESSAGE(made.count(value.text()) == 1, value.text());
}

TEST_CASE("every GPU file the registry names is in a GPU folder, and every file there is named by an entry") {
  const std::vector<std::string> devices = device_folders(kResults.string());
  REQUIRE(devices.size() >= 1);
  for (const auto& e : results()) {
    if (e.platform != Platform::Gpu) continue;
    for (const auto& f : e.files) {
      bool somewhere = false;
      for (const auto& d : devices) somewhere = somewhere || fs::exists(kResults / d / for_device(f, d.substr(4)));
      CHECK_MESSAGE(somewhere, e.name << ": " << f << " is in no results/gpu-<device>/");
    }
  }
  for (const auto& d : devices) {
    std::set<std::string> named;
    for (const auto& e : results())
      if (e.platform == Platform::Gpu)
        for (const auto& f : e.files) named.insert(for_device(f, d.substr(4)));
    for (const auto& f : entries_of(kResults / d))
      CHECK_MESSAGE(named.count(f) == 1, d << "/" << f << " is named by no entry of experiments/results.cpp");
  }
}

TEST_CASE("the page shows the cells the CSV holds, as it holds them, with the paper's beside ours") {
  const TempFolder t;
  t.write("kasagi-t1.csv", kasagi_t1_csv());
  t.write("gpu-x100/kasagi-t2.csv",
          "type,sqrt_n,permutation,algorithm,ms,ratio_to_d_identical,gtx_680_ratio_paper\n"
          "float,4096,random,d-designated,0.5,12.25,13.5\n"
          "float,4096,random,s-designated,0.25,6.5,12.5\n"
          "float,4096,random,scheduled-paper,0.75,3.5,6\n"
          "float,4096,bit-reversal,in-place,0.125,0.5,1.25\n");
  const std::string page = results_readme(t.path.string());
  CHECK(page.find("| algorithm | permutation | time units | closed form | difference | async time units |") !=
        std::string::npos);
  CHECK(page.find("| d-designated | random | 111 | 222 | -111 | 99 |") != std::string::npos);
  CHECK(page.find("| scheduled | random | 7 | 7 | 0 | 6 |") != std::string::npos);
  // The GPU's rows carry the folder's device, and its files are linked inside that folder.
  CHECK(page.find("| X100 | float | 4096 | random | d-designated | 0.5 | 12.25 | 13.5 |") != std::string::npos);
  CHECK(page.find("[kasagi-t2.csv](gpu-x100/kasagi-t2.csv)") != std::string::npos);
  CHECK(page.find("[kasagi-t1.csv](kasagi-t1.csv)") != std::string::npos);
  // Every entry of the registry has its section, whether or not its files are here.
  for (const auto& e : results()) CHECK_MESSAGE(page.find("### " + e.name + " (") != std::string::npos, e.name);
}

TEST_CASE("a file that is absent is said to be absent, and a GPU table with no GPU folder says so") {
  const TempFolder t;
  const std::string page = results_readme(t.path.string());
  CHECK(page.find("kasagi-t1.csv is not here yet.") != std::string::npos);
  CHECK(page.find("Files: absent: kasagi-t1.md, kasagi-t1.csv, kasagi-t1.json.") != std::string::npos);
  CHECK(page.find("No GPU folder here yet.") != std::string::npos);
  CHECK(page.find("writes the GPU's tables into `gpu-<device>/` (none here yet).") != std::string::npos);
}

TEST_CASE("a CSV that lacks a row or a column the registry names, or holds a row twice, is refused naming it") {
  const TempFolder t;
  t.write("kasagi-t1.csv",
          "algorithm,permutation,time_units,closed_form,difference,async_time_units,correct\n"
          "d-designated,random,111,222,-111,99,yes\n");
  CHECK(message_of(t.path.string()).find("kasagi-t1.csv: no row with algorithm = transpose, permutation = transpose") !=
        std::string::npos);
  t.write("kasagi-t1.csv", kasagi_t1_csv("scheduled,random,8,8,0,6,yes\n"));
  CHECK(message_of(t.path.string()).find("kasagi-t1.csv: 2 rows with algorithm = scheduled, permutation = random") !=
        std::string::npos);
  t.write("kasagi-t1.csv", "algorithm,permutation,time_units\nd-designated,random,1\n");
  CHECK(message_of(t.path.string()).find("kasagi-t1.csv: no column 'closed_form'") != std::string::npos);
}

TEST_CASE("a calibration that lists each bench once a pass shows the first pass's row") {
  const TempFolder t;
  t.write("gpu-x100/calibration-x100.csv",
          "pass,bench,n,element_bytes,median_ms,correct\n"
          "1,empty,32,4,0.006,yes\n"
          "1,copy,4194304,4,0.0139,yes\n"
          "2,empty,32,4,0.007,yes\n"
          "2,copy,4194304,4,0.0137,yes\n");
  const std::string page = results_readme(t.path.string());
  CHECK(page.find("| X100 | copy | 4194304 | 4 | 0.0139 | yes |") != std::string::npos);
  CHECK(page.find("| X100 | empty | 32 | 4 | 0.006 | yes |") != std::string::npos);
  CHECK(page.find("0.0137") == std::string::npos);
}

TEST_CASE("a quoted field with commas is one field of the CSV") {
  const TempFolder t;
  t.write("gpu-x100/bmmc.csv",
          "device,log2_n,permutation,kernel,median_ms,pct_of_copy_bandwidth,goal_pct,goal,speedup_over_naive\n"
          "\"GPU, 132 SMs\",30,random BPC,tile-banks-iters,2.5,95.5,90,held,10.5\n"
          "\"GPU, 132 SMs\",30,random BMMC,tile-banks-iters,6.5,91.5,85,held,13.5\n"
          "\"GPU, 132 SMs\",30,bit-reversal,tile-banks-iters,3.5,90.5,90,held,25.5\n"
          "\"GPU, 132 SMs\",20,random BPC,tile-banks-iters,0.1,50,90,missed,2.5\n"
          "\"GPU, 132 SMs\",20,bit-reversal,tile-banks-iters,0.1,50,90,missed,3.5\n");
  const std::string page = results_readme(t.path.string());
  CHECK(page.find("| X100 | 30 | random BMMC | tile-banks-iters | 6.5 | 91.5 | 85 | held |") != std::string::npos);
  CHECK(page.find("| X100 | 20 | bit-reversal | tile-banks-iters | 3.5 |") != std::string::npos);
}
