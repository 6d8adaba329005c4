// Sweeps: the JSON reader, grids and their cross product, and resuming from a journal (its CSV
// cells: test_csv.cpp); the run itself is tested from the command line (cli_sweep.sh), MPI included.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

#include "io/input_error.h"
#include "report/json_reader.h"
#include "sweep/sweep.h"
#include "sweep/sweep_run.h"

using namespace mmsim;
using namespace mmsim::sweep;

namespace {

std::string error_of(const std::string& grid) {
  try {
    (void)parse_grid(grid, "g.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("the JSON reader: values, order kept, escapes, and errors with their place") {
  const auto v = report::parse_json(R"( {"b": [1, -2, 3.5e2, true, null], "a": "x\"\u00e9\n", "c": {}} )");
  REQUIRE(v.is_object());
  CHECK(v.members()[0].first == "b");  // the order written, not sorted
  CHECK(v.members()[1].first == "a");
  const auto& b = v.find("b")->items();
  CHECK(b[0].integer() == 1);
  CHECK(b[1].integer() == -2);
  CHECK(b[2].text() == "3.5e2");
  CHECK_FALSE(b[2].integer().has_value());
  CHECK(b[3].boolean());
  CHECK(b[4].is_null());
  CHECK(v.find("a")->text() == "x\"\xc3\xa9\n");
  CHECK(report::parse_json("9223372036854775807").integer() == INT64_MAX);
  CHECK(report::parse_json("-9223372036854775808").integer() == INT64_MIN);
  CHECK_FALSE(report::parse_json("9223372036854775808").integer().has_value());
  for (const char* bad :
       {"", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\x\"", "{\"a\":1,\"a\":2}", "[1] 2", "tru", "\"a\nb\""}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(report::parse_json(bad), std::invalid_argument);
  }
  try {
    report::parse_json("{\n  \"a\": [1,\n  2,,]}");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "line 3, column 5: a value was expected");
  }
  std::string deep(report::kMaxJsonDepth + 5, '[');
  CHECK_THROWS_AS(report::parse_json(deep), std::invalid_argument);
}

TEST_CASE("a grid's cross product: executions outermost, the last parameter fastest, defaults filled") {
  const SweepGrid g = parse_grid(R"({"runs": [
      {"algorithm": "d-designated", "execution": ["round-synchronous", "asynchronous"],
       "parameters": {"n": {"from": 1024, "to": 16384, "times": 4}, "perm": ["random", "identical"]}},
      {"algorithm": "congestion", "parameters": {"layout": "rap", "pattern": "stride", "w": {"from": 4, "to": 12, "step": 4}}}]})",
                                 "g.json");
  REQUIRE(g.rows.size() == 2 * 3 * 2 + 3);
  CHECK(g.rows[0].given.integer("n") == 1024);
  CHECK(g.rows[0].given.text("perm") == "random");
  CHECK(g.rows[1].given.text("perm") == "identical");
  CHECK(g.rows[2].given.integer("n") == 4096);
  CHECK(g.rows[5].given.integer("n") == 16384);
  CHECK(g.rows[6].execution == Execution::Asynchronous);
  CHECK(g.rows[12].given.integer("w") == 4);
  CHECK(g.rows[14].given.integer("w") == 12);
  // Every declared parameter is a column, with its default where the grid gave none.
  std::vector<std::string> names;
  for (const auto& c : g.columns) names.push_back(c.name);
  CHECK(names.front() == "algorithm");
  CHECK(std::find(names.begin(), names.end(), "k") != names.end());
  CHECK(std::find(names.begin(), names.end(), "congestion_mean") != names.end());
  // The row's error, then the build that made it (docs/sweep.md's column order).
  REQUIRE(names.size() >= 3);
  CHECK(names[names.size() - 3] == "error");
  CHECK(names.back() == "mmsim_commit");
  CHECK(g.rows[0].values.integer("k") == 8);
  CHECK_FALSE(g.rows[0].given.has("k"));
  // Keys tell rows apart and come back from the cells the rows produce.
  const auto cells = run_row(g, g.rows[14]);
  CHECK(key_of_cells(g, cells) == g.rows[14].key);
  CHECK(g.rows[0].key != g.rows[1].key);
}

TEST_CASE("bad grids are refused in one line naming the run, the parameter and the rule") {
  CHECK(error_of(R"({"runs": [{"algorithm": "quicksort"}]})") ==
        "sweep: g.json: runs[0]: unknown algorithm 'quicksort' (see mmsim list)");
  CHECK(error_of(R"({"runs": [{"algorithm": "d-designated", "parameters": {"colour": 1}}]})")
            .find("runs[0]: d-designated: 'colour' is not a parameter") != std::string::npos);
  CHECK(error_of(R"({"runs": [{"algorithm": "d-designated", "parameters": {"n": 1024, "w": [32, 0]}}]})") ==
        "sweep: g.json: runs[0]: d-designated: -w: must be an integer in [1, 2^16] (got '0')");
  CHECK(error_of(R"({"runs": [{"algorithm": "congestion", "parameters": {"layout": "rap", "pattern": "zig"}}]})")
            .find("congestion: --pattern: unknown 'zig'") != std::string::npos);
  CHECK(error_of(R"({"runs": [{"algorithm": "congestion", "execution": "asynchronous"}]})").find("no execution") !=
        std::string::npos);
  CHECK(error_of(R"({"runs": [{"algorithm": "crsw", "parameters": {"w": {"from": 9, "to": 3}}}]})")
            .find("must not exceed") != std::string::npos);
  CHECK(error_of(R"({"runs": [{"algorithm": "crsw", "parameters": {"w": []}}]})").find("empty list") !=
        std::string::npos);
  CHECK(error_of(R"({"runs": [{"algorithm": "crsw"}, {"algorithm": "crsw", "parameters": {"w": 32}}]})")
            .find("runs[1] (crsw): a row repeats one listed before it") != std::string::npos);
  CHECK(error_of(R"({"runs": [{"algorithm": "crsw"}], "seed": 3})").find("'seed' is not a grid key") !=
        std::string::npos);
  CHECK(error_of(R"({"runs": [{"algorithm": "crsw", "parameters": {"seed": {"from": 1, "to": 2000000}}}]})")
            .find("at most 100000 values") != std::string::npos);
  CHECK(error_of("[1, 2").find("sweep: g.json: not JSON: line 1") == 0);
  for (const auto& e : {error_of(R"({"runs": [{"algorithm": "crsw", "parameters": {"w": null}}]})"),
                        error_of(R"({"runs": [{"algorithm": 7}]})"), error_of("{}")})
    CHECK(e.find('\n') == std::string::npos);
}

TEST_CASE("a resumed sweep keeps the journal's rows, skips torn lines and writes the same files") {
  const std::string grid_path = "test_sweep_grid.json", out = "test_sweep_out.csv", again = "test_sweep_again.csv";
  std::ofstream(grid_path)
      << R"({"runs": [{"algorithm": "crsw", "parameters": {"w": [4, 8, 16], "layout": ["raw", "rap"]}},
      {"algorithm": "congestion", "parameters": {"layout": "ras", "pattern": ["stride", "random"], "trials": 500}}]})";
  auto comm = local_sweep_comm();
  const SweepSummary full = run_sweep({grid_path, out, 2}, *comm);
  CHECK(full.rows == 8);
  CHECK(full.run_now == 8);
  CHECK(full.incorrect + full.refused == 0);
  // An interrupted run's journal: the header, three rows in another order, a torn line.
  const std::string csv = read(out);
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = csv.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(csv.substr(at, end - at));
  std::ofstream(sweep_paths(again).journal) << lines[0] << "\n"
                                            << lines[5] << "\n"
                                            << lines[1] << "\n"
                                            << lines[7] << "\n"
                                            << lines[2].substr(0, 9);
  const SweepSummary resumed = run_sweep({grid_path, again, 3}, *comm);
  CHECK(resumed.from_journal == 3);
  CHECK(resumed.run_now == 5);
  CHECK(read(again) == csv);
  CHECK(read(sweep_paths(again).json) == read(sweep_paths(out).json));
  CHECK_FALSE(std::ifstream(sweep_paths(again).journal).good());  // gone once the outputs are written
  for (const auto& p : {grid_path, out, sweep_paths(out).json, again, sweep_paths(again).json}) std::remove(p.c_str());
}
