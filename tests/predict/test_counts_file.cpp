// The counts file: every counter round-trips by name, a row is found only for its own run and
// machine, and a file whose counters are not this build's is refused. The memory scheduler: every
// job runs, and the jobs running together never pass the budget.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "predict/counts_file.h"
#include "predict/validate/memory_scheduler.h"
#include "tests/predict/small_gpu.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

// Counts whose every counter differs from every other, so that a swapped column shows.
RunCounts distinct_counts(std::uint64_t base) {
  RunCounts c;
  std::vector<std::string> names = counter_names();
  // Set through the file itself: write one row of values base, base + 1, ... and read it back.
  std::string csv = "algorithm,permutation,type,n";
  for (const auto& [name, value] : machine_fields(small_gpu_profile(), 4)) csv += "," + name;
  for (const auto& name : names) csv += "," + name;
  csv += ",correct\nx,y,float,1";
  for (const auto& [name, value] : machine_fields(small_gpu_profile(), 4)) csv += "," + std::to_string(value);
  for (std::size_t i = 0; i < names.size(); ++i) csv += "," + std::to_string(base + i);
  csv += ",yes\n";
  const auto path = std::filesystem::temp_directory_path() / "mmsim_counts_distinct.csv";
  std::ofstream(path) << csv;
  c = CountsFile::read(path).rows().at(0).counts;
  std::filesystem::remove(path);
  return c;
}

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path;
}

// `csv` without the columns `names`, as a file written before they were added.
std::string without_columns(const std::string& csv, const std::vector<std::string>& names) {
  std::vector<std::vector<std::string>> cells;
  for (std::size_t at = 0; at < csv.size();) {
    const std::size_t end = csv.find('\n', at);
    std::vector<std::string> c(1);
    for (char ch : csv.substr(at, end - at)) {
      if (ch == ',')
        c.emplace_back();
      else
        c.back() += ch;
    }
    cells.push_back(c);
    at = end + 1;
  }
  std::vector<std::size_t> drop;
  for (const auto& name : names) {
    const auto column = std::find(cells[0].begin(), cells[0].end(), name) - cells[0].begin();
    REQUIRE(column < static_cast<std::ptrdiff_t>(cells[0].size()));
    drop.push_back(static_cast<std::size_t>(column));
  }
  std::string out;
  for (const auto& row : cells) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i)
      if (std::find(drop.begin(), drop.end(), i) == drop.end()) line += (line.empty() ? "" : ",") + row[i];
    out += line + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("a counts file round-trips every counter, and rows match run and machine alike") {
  const GpuProfile profile = small_gpu_profile();
  const RunCounts counts = distinct_counts(1000);
  const std::vector<std::uint64_t> values = counter_values(counts);
  for (std::size_t i = 0; i < values.size(); ++i) CHECK(values[i] == 1000 + i);

  CountsFile file;
  const RunIdentity run{"d-designated", "random", "float", 1024};
  file.put({run, machine_fields(profile, 4), counts, true});
  GpuProfile bigger_cache = profile;
  bigger_cache.memory.cache_bytes *= 2;
  file.put({run, machine_fields(bigger_cache, 4), distinct_counts(5000), false});
  const auto path = write_temp("mmsim_counts_roundtrip.csv", file.csv());
  const CountsFile back = CountsFile::read(path);
  std::filesystem::remove(path);
  REQUIRE(back.rows().size() == 2);
  const CountsRow* same = back.find(run, machine_fields(profile, 4));
  REQUIRE(same != nullptr);
  CHECK(counter_values(same->counts) == values);
  CHECK(same->correct);
  const CountsRow* other = back.find(run, machine_fields(bigger_cache, 4));
  REQUIRE(other != nullptr);
  CHECK(counter_values(other->counts).front() == 5000);
  CHECK_FALSE(other->correct);
  // Another element size, another n, another permutation: no row.
  CHECK(back.find(run, machine_fields(profile, 8)) == nullptr);
  CHECK(back.find({"d-designated", "random", "float", 2048}, machine_fields(profile, 4)) == nullptr);
  CHECK(back.find({"d-designated", "transpose", "float", 1024}, machine_fields(profile, 4)) == nullptr);
  // A row put again replaces the old one.
  file.put({run, machine_fields(profile, 4), distinct_counts(7000), true});
  CHECK(file.rows().size() == 2);
  CHECK(counter_values(file.find(run, machine_fields(profile, 4))->counts).front() == 7000);
}

TEST_CASE("a counts file whose counters are not this build's is refused, naming the difference") {
  CountsFile file;
  file.put(
      {{"d-designated", "random", "float", 1024}, machine_fields(small_gpu_profile(), 4), distinct_counts(1), true});
  const std::string text = file.csv();
  const std::string header = text.substr(0, text.find('\n'));
  const std::string body = text.substr(text.find('\n'));
  const auto refused = [](const std::string& csv) -> std::string {
    const auto path = write_temp("mmsim_counts_refused.csv", csv);
    try {
      CountsFile::read(path);
    } catch (const std::invalid_argument& e) {
      std::filesystem::remove(path);
      return e.what();
    }
    std::filesystem::remove(path);
    return "";
  };
  // A counter the build does not know (a file from a later model): refused, not ignored.
  std::string extra = header + ",rmw_writebacks" + body;
  extra.insert(extra.size() - 1, ",3");
  CHECK(refused(extra).find("unknown: 'rmw_writebacks'") != std::string::npos);
  // A counter of this build missing from the file: refused, never read as zero.
  const std::string name = "dram_fills";
  std::string missing = text;
  const std::size_t at = missing.find("," + name);
  missing.erase(at, name.size() + 1);
  CHECK(refused(missing).find("missing: dram_fills") != std::string::npos);
  CHECK(
      refused(header + "\nd-designated,random,float,notanumber" + body.substr(body.find(",1024") + 5)).find("line 2") !=
      std::string::npos);
  CHECK(refused(text).empty());
}

TEST_CASE("a counts file from before the write-backs' reach was a column reads as the old reach") {
  CountsFile file;
  const RunIdentity run{"d-designated", "random", "float", 1024};
  GpuProfile profile = small_gpu_profile();
  REQUIRE(profile.memory.dram_write_rows == 65536);
  file.put({run, machine_fields(profile, 4), distinct_counts(1), true});
  // The same file without the column, as every file was written before it.
  const std::string old = without_columns(file.csv(), {"dram_write_rows"});
  const auto path = write_temp("mmsim_counts_old.csv", old);
  const CountsFile back = CountsFile::read(path);
  std::filesystem::remove(path);
  CHECK(back.find(run, machine_fields(profile, 4)) != nullptr);
  profile.memory.dram_write_rows = 4096;  // another reach: those runs do not count for it
  CHECK(back.find(run, machine_fields(profile, 4)) == nullptr);
}

TEST_CASE("a counts file ends with the build that counted each row, kept through a read, a put and old files") {
  CountsFile file;
  const RunIdentity run{"d-designated", "random", "float", 1024};
  const GpuProfile profile = small_gpu_profile();
  file.put({run, machine_fields(profile, 4), distinct_counts(1), true});
  const std::string text = file.csv();
  const std::string header = text.substr(0, text.find('\n'));
  const std::string build_columns = ",correct,mmsim_version,mmsim_commit";
  REQUIRE(header.size() > build_columns.size());
  CHECK(header.substr(header.size() - build_columns.size()) == build_columns);
  const std::string version = report::build_info().version, commit = report::build_info().commit;
  CHECK(text.find(",yes," + version + "," + commit + "\n") != std::string::npos);
  // A row of an earlier build keeps its build when read, written again, and put again unchanged;
  // counted again to other values, it is this build's.
  std::string earlier = text;
  earlier.replace(earlier.find(",yes," + version), 5 + version.size() + 1 + commit.size(), ",yes,0.1.0,abc1234");
  const auto path = write_temp("mmsim_counts_build.csv", earlier);
  CountsFile back = CountsFile::read(path);
  std::filesystem::remove(path);
  REQUIRE(back.rows().size() == 1);
  CHECK(back.rows()[0].version == "0.1.0");
  CHECK(back.rows()[0].commit == "abc1234");
  CHECK(back.csv().find(",yes,0.1.0,abc1234\n") != std::string::npos);
  back.put({run, machine_fields(profile, 4), distinct_counts(1), true});
  CHECK(back.rows()[0].commit == "abc1234");
  back.put({run, machine_fields(profile, 4), distinct_counts(2), true});
  CHECK(back.rows()[0].commit == commit);
  // A file from before the build columns (every committed one): read, each row's build empty.
  const auto old_path =
      write_temp("mmsim_counts_no_build.csv", without_columns(text, {"mmsim_version", "mmsim_commit"}));
  const CountsFile old = CountsFile::read(old_path);
  std::filesystem::remove(old_path);
  REQUIRE(old.rows().size() == 1);
  CHECK(old.rows()[0].version.empty());
  CHECK(counter_values(old.rows()[0].counts) == counter_values(distinct_counts(1)));
}

TEST_CASE("a counts file from before merged write-backs' rows were counted reads them where implied") {
  const GpuProfile profile = small_gpu_profile();
  const auto machine = machine_fields(profile, 4);
  // Three runs: no write-back merged; every write-back merged; some merged (not implied).
  RunCounts none = distinct_counts(100), every = distinct_counts(200), some = distinct_counts(300);
  none.memory.fills = 0;
  every.memory.fills = every.memory.dram_writes;
  REQUIRE(some.memory.fills != 0);
  REQUIRE(some.memory.fills != some.memory.dram_writes);
  CountsFile file;
  file.put({{"a", "p", "float", 1}, machine, none, true});
  file.put({{"b", "p", "float", 1}, machine, every, true});
  file.put({{"c", "p", "float", 1}, machine, some, true});
  const auto path = write_temp("mmsim_counts_no_rmw.csv", without_columns(file.csv(), {"dram_rmw_activations"}));
  const CountsFile back = CountsFile::read(path);
  std::filesystem::remove(path);
  CHECK(back.rows().size() == 2);
  CHECK(back.left_out() == 1);
  const CountsRow* a = back.find({"a", "p", "float", 1}, machine);
  const CountsRow* b = back.find({"b", "p", "float", 1}, machine);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(a->counts.memory.rmw_activations == 0);
  CHECK(b->counts.memory.rmw_activations == every.memory.write_activations);
  CHECK(b->counts.memory.dram_writes == every.memory.dram_writes);  // the other counters as written
  CHECK(back.find({"c", "p", "float", 1}, machine) == nullptr);
}

// `csv` (a header and one row) with column `name` of value `value` inserted before column `before`.
static std::string with_column(const std::string& csv, const std::string& name, const std::string& value,
                               const std::string& before) {
  const auto split = [](const std::string& line) {
    std::vector<std::string> out(1);
    for (char ch : line) {
      if (ch == ',')
        out.emplace_back();
      else
        out.back().push_back(ch);
    }
    return out;
  };
  const std::size_t eol = csv.find('\n');
  std::vector<std::string> head = split(csv.substr(0, eol)),
                           row = split(csv.substr(eol + 1, csv.find('\n', eol + 1) - eol - 1));
  const auto at = std::find(head.begin(), head.end(), before) - head.begin();
  REQUIRE(at < static_cast<std::ptrdiff_t>(head.size()));
  head.insert(head.begin() + at, name);
  row.insert(row.begin() + at, value);
  std::string out;
  for (const auto* line : {&head, &row}) {
    for (std::size_t k = 0; k < line->size(); ++k) out += (k ? "," : "") + (*line)[k];
    out += "\n";
  }
  return out;
}

TEST_CASE("a counts file with the columns of the retired L2 of lines is read, those columns read past") {
  CountsFile file;
  const RunIdentity run{"d-designated", "random", "float", 1024};
  const GpuProfile profile = small_gpu_profile();
  const RunCounts counts = distinct_counts(1);
  file.put({run, machine_fields(profile, 4), counts, true});
  // The file as it was written while the model l2-lines was fitted: the line's size among the
  // machine fields, and the L2 of lines' counters before "correct".
  std::string old = with_column(file.csv(), "cache_line_bytes", "128", "dram_row_bytes");
  old = with_column(old, "line_l2_hits", "7", "correct");
  old = with_column(old, "line_dram_rmw_activations", "8", "correct");
  const auto path = write_temp("mmsim_counts_lines.csv", old);
  const CountsFile back = CountsFile::read(path);
  std::filesystem::remove(path);
  const CountsRow* row = back.find(run, machine_fields(profile, 4));
  REQUIRE(row != nullptr);
  CHECK(counter_values(row->counts) == counter_values(counts));
  // A prefix line_ on what is no counter is still refused.
  const auto bad = write_temp("mmsim_counts_lines_bad.csv", with_column(file.csv(), "line_nothing", "0", "correct"));
  CHECK_THROWS_AS(CountsFile::read(bad), std::invalid_argument);
  std::filesystem::remove(bad);
}

TEST_CASE("the memory scheduler runs every job and never passes the budget") {
  std::vector<predict::MemoryJob> jobs;
  for (std::uint64_t b : {60, 50, 40, 30, 30, 20, 10, 10, 5, 5}) jobs.push_back({"job", b});
  jobs.push_back({"too large for the budget", 150});
  std::mutex mutex;
  std::uint64_t in_use = 0, peak = 0;
  std::size_t alone_violations = 0, running = 0;
  std::vector<int> ran(jobs.size(), 0);
  std::ostringstream progress;
  predict::run_within_memory(
      jobs, 4, 100,
      [&](std::size_t i) {
        {
          const std::lock_guard lock(mutex);
          in_use += jobs[i].bytes;
          ++running;
          peak = std::max(peak, jobs[i].bytes > 100 ? 0 : in_use);
          if (jobs[i].bytes > 100 && running != 1) ++alone_violations;
          ++ran[i];
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        const std::lock_guard lock(mutex);
        in_use -= jobs[i].bytes;
        --running;
      },
      &progress);
  for (int r : ran) CHECK(r == 1);
  CHECK(peak <= 100);
  CHECK(peak > 60);  // several jobs did run together
  CHECK(alone_violations == 0);
  CHECK(progress.str().find("run 11 of 11: too large for the budget started") != std::string::npos);
}

TEST_CASE("a counts file keeps each row's sampling; a file from before the columns holds exact runs") {
  CountsFile file;
  const GpuProfile profile = small_gpu_profile();
  CountsRow sampled{{"d-designated", "random", "float", 1024}, machine_fields(profile, 4), distinct_counts(1), true};
  sampled.sample_shift = 5;
  sampled.sample_seed = 9;
  file.put(sampled);
  file.put({{"transpose", "transpose", "float", 1024}, machine_fields(profile, 4), distinct_counts(2), true});
  const std::string text = file.csv();
  const auto path = write_temp("mmsim_counts_sampling.csv", text);
  const CountsFile back = CountsFile::read(path);
  std::filesystem::remove(path);
  const CountsRow* s = back.find(sampled.run, sampled.machine);
  REQUIRE(s != nullptr);
  CHECK(s->sample_shift == 5);
  CHECK(s->sample_seed == 9);
  const CountsRow* e = back.find({"transpose", "transpose", "float", 1024}, sampled.machine);
  REQUIRE(e != nullptr);
  CHECK(e->sample_shift == 0);
  // Without the columns (every file written before them): every row exact.
  const auto old_path =
      write_temp("mmsim_counts_no_sampling.csv", without_columns(text, {"sample_shift", "sample_seed"}));
  const CountsFile old = CountsFile::read(old_path);
  std::filesystem::remove(old_path);
  REQUIRE(old.rows().size() == 2);
  for (const CountsRow& r : old.rows()) CHECK(r.sample_shift == 0);
  // A shift no sample can have is refused, naming the column.
  std::string wrong = text;
  wrong.replace(wrong.find(",5,9,yes"), 8, ",99,9,yes");
  const auto wrong_path = write_temp("mmsim_counts_bad_shift.csv", wrong);
  CHECK_THROWS_WITH_AS(CountsFile::read(wrong_path), doctest::Contains("sample_shift must be at most 62"),
                       std::invalid_argument);
  std::filesystem::remove(wrong_path);
}
