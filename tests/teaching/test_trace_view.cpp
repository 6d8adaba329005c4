// `mmsim trace`: the one trace schema read back line by line (a malformed line is named by number),
// rounds and lanes recovered from a real run, and the pictures of it.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <tuple>

#include "algorithms/registry.h"
#include "algorithms/run_output.h"
#include "io/input_error.h"
#include "teaching/trace_file.h"
#include "teaching/trace_view.h"

using namespace mmsim;
using namespace mmsim::teaching;

namespace {

const std::string kHeader = trace_header() + "\n";

// The InputError message of reading `text`, or "" when it reads.
std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    (void)read_trace(in, "t.csv");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TraceFile trace_of(const char* algorithm, ParamValues given, Execution e) {
  const auto* entry = find_algorithm(algorithm);
  REQUIRE(entry != nullptr);
  const RunReport r = run_algorithm(*entry, given, e, true);
  std::stringstream csv;
  REQUIRE(write_trace_csv(csv, r));
  return read_trace(csv, "run.csv");
}

}  // namespace

TEST_CASE("a d-designated run's trace reads back: three global rounds, one after another") {
  const auto t = trace_of("d-designated", {{"n", 256}, {"w", 8}, {"L", 10}}, Execution::RoundSynchronous);
  REQUIRE(t.rounds.size() == 3);
  CHECK(t.rounds[0].name == "read a");
  CHECK(t.rounds[2].op == Op::Write);
  REQUIRE(t.lanes.size() == 1);
  CHECK(t.lanes[0].name == "global");
  CHECK(t.lanes[0].latency == 10);
  CHECK(t.rounds[0].slots == 32);  // 256 / 8 coalesced warps
  CHECK(t.rounds[1].first_enter == t.rounds[0].last_complete + 1);
  CHECK_FALSE(t.overlapping());
}

TEST_CASE("an asynchronous transpose's trace: k shared lanes beside the global one, rounds overlapping") {
  const ParamValues p{{"n", 1024}, {"w", 8}, {"k", 3}, {"L", 20}, {"perm", "transpose"}};
  const auto a = trace_of("transpose", p, Execution::Asynchronous);
  REQUIRE(a.lanes.size() == 4);
  CHECK(a.lanes[1].name == "shared0");
  CHECK(a.lanes[3].name == "shared2");
  CHECK(a.overlapping());
  const auto s = trace_of("transpose", p, Execution::RoundSynchronous);
  CHECK_FALSE(s.overlapping());
  CHECK(a.end < s.end);
  const auto svg = trace_svg(a, "a.csv");
  CHECK(svg.find("shared2") != std::string::npos);
  CHECK(svg.find("rounds overlap") != std::string::npos);
}

TEST_CASE("two traces drawn on one time axis share its scale; a narrow picture wraps its explanation") {
  const ParamValues p{{"n", 1024}, {"w", 8}, {"k", 3}, {"L", 20}, {"perm", "transpose"}};
  const auto a = trace_of("transpose", p, Execution::Asynchronous);
  const auto s = trace_of("transpose", p, Execution::RoundSynchronous);
  REQUIRE(a.end < s.end);
  // The axis of the longer run: its last tick is the same in both pictures, and both are as wide.
  const auto width = [](const std::string& svg) { return svg.substr(0, svg.find("height")); };
  const auto shorter = trace_svg(a, "a", 760, s.end), longer = trace_svg(s, "s", 760, s.end);
  CHECK(width(shorter) == width(longer));
  const auto last_tick = [](const std::string& svg) {  // the largest time on the axis
    const std::string mark = "text-anchor=\"middle\">";
    TimeUnits most = 0;
    for (auto at = svg.find(mark); at != std::string::npos; at = svg.find(mark, at + 1))
      most = std::max<TimeUnits>(most, std::stoll(svg.substr(at + mark.size())));
    return most;
  };
  CHECK(last_tick(shorter) == last_tick(longer));
  CHECK(last_tick(shorter) > a.end);
  CHECK(trace_svg(a, "a", 760, 0) == trace_svg(a, "a", 760, a.end));  // 0: the trace's own end
  // At 1250 px (the default) the explanation is one line; at 300 px it wraps, every word kept.
  CHECK(trace_svg(a, "a").find("<text x=\"10\" y=\"76\">") == std::string::npos);
  const auto narrow = trace_svg(a, "a", 300);
  CHECK(narrow.find("<text x=\"10\" y=\"76\">") != std::string::npos);
  CHECK(narrow.find("as a share of its latency.</text>") != std::string::npos);
}

TEST_CASE("a run's own slots make the trace its CSV reads back as, with no file between") {
  for (const auto& [name, given, execution] : std::vector<std::tuple<std::string, ParamValues, Execution>>{
           {"transpose", {{"n", 1024}, {"w", 8}, {"k", 3}, {"L", 20}}, Execution::Asynchronous},
           {"d-designated", {{"n", 256}, {"w", 8}}, Execution::RoundSynchronous},
           {"parm-sort", {{"n", 64}, {"w", 4}}, Execution::Asynchronous},
       }) {
    CAPTURE(name);
    const RunReport r = run_algorithm(*find_algorithm(name), given, execution, true);
    std::stringstream csv;
    REQUIRE(write_trace_csv(csv, r));
    const TraceFile file = read_trace(csv, "run.csv");
    const TraceFile direct = teaching::trace_of(r.stats, r.trace);
    CHECK(trace_json(direct, "run").dump() == trace_json(file, "run").dump());
    CHECK(trace_svg(direct, "run", 900) == trace_svg(file, "run", 900));
    REQUIRE(direct.slots.size() == file.slots.size());
    CHECK(direct.end == file.end);
  }
}

TEST_CASE("a malformed trace is refused naming the line") {
  CHECK(error_of("") == "trace 't.csv': line 1: empty file: expected the header '" + trace_header() + "'");
  CHECK(error_of("round,kernel\n").rfind("trace 't.csv': line 1: expected the header", 0) == 0);
  CHECK(error_of(kHeader + "0,k,r,a,read,global,0,0,0,4,1\n0,k,r,a,read,global\n") ==
        "trace 't.csv': line 3: 6 fields, expected 11");
  CHECK(error_of(kHeader + "0,k,r,a,peek,global,0,0,0,4,1\n") ==
        "trace 't.csv': line 2: op 'peek' is neither read, write nor atomic");
  CHECK(error_of(kHeader + "0,k,r,a,read,local,0,0,0,4,1\n") ==
        "trace 't.csv': line 2: memory 'local' is neither global nor shared<d>");
  CHECK(error_of(kHeader + "0,k,r,a,read,global,0,0,x,4,1\n") ==
        "trace 't.csv': line 2: enter 'x' is not a whole number");
  CHECK(error_of(kHeader + "0,k,r,a,read,global,0,0,5,4,1\n") == "trace 't.csv': line 2: complete 4 is before enter 5");
  CHECK(error_of(kHeader + "0,k,r,a,read,global,0,0,0,4,1 x\n") ==
        "trace 't.csv': line 2: request 'x' is not a whole number");
  CHECK(error_of(kHeader + "0,k,r,a,read,global,0,0,0,4,1\n\n") == "trace 't.csv': line 3: empty line");
  // The machine's rules: one latency per pipeline, one slot entering it per time unit.
  CHECK(error_of(kHeader + "0,k,r,a,read,global,0,0,0,4,1\n0,k,r,a,read,global,1,0,1,6,2\n") ==
        "trace 't.csv': line 3: global has latency 6 here but 5 on line 2");
  CHECK(error_of(kHeader + "0,k,r,a,read,shared0,0,0,0,0,1\n0,k,r,a,read,shared0,1,0,0,0,2\n") ==
        "trace 't.csv': line 3: a second slot enters shared0 at time unit 0 (the first is on line 2)");
  CHECK(
      error_of(kHeader + "0,k,r,a,read,global,0,0,0,4,1\n0,k,s,a,read,global,1,0,1,5,2\n").find("line 3: round 0 is") !=
      std::string::npos);
  CHECK(error_of(kHeader + "0,k,r,a,read,global,0,0,0,4,1\n0,k,r,a,read,shared1,1,0,1,1,2\n") ==
        "trace 't.csv': line 3: round 0 mixes the global memory and a shared memory");
  CHECK(error_of(kHeader + "0,k,r,a,read,global,0,0,0,4,1\r\n").empty());  // CRLF line ends read
}

TEST_CASE("the text view draws the access diagram for a small trace, and says why when it does not") {
  std::istringstream small(kHeader + "0,k,r,a,read,global,0,0,0,2,1\n0,k,r,a,read,global,0,1,1,3,9\n");
  const auto text = trace_text(read_trace(small, "s.csv"), "s.csv");
  CHECK(text.find("   1 | W0b  W0a") != std::string::npos);
  std::istringstream big(kHeader + "0,k,r,a,read,global,0,0,0,99,1\n");
  const auto left_out = trace_text(read_trace(big, "b.csv"), "b.csv");
  CHECK(left_out.find("pipeline diagram left out: 100 pipeline stages") != std::string::npos);
}
