// The one algorithm interface: typed parameters checked as written, every registry entry well
// formed, and every algorithm run through the registry with small inputs into one report schema.
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "algorithms/registry.h"
#include "algorithms/run_output.h"
#include "io/input_error.h"
#include "report/table.h"

using namespace mmsim;

namespace {

std::string error_of(const std::string& text, const ParamSpec& spec) {
  auto r = parse_integer(text, spec);
  if (auto* e = std::get_if<std::string>(&r)) return *e;
  return "";
}

// The small inputs each algorithm needs beyond its defaults. Every registered algorithm must have a
// line here, so that a new algorithm is run by this test from the day it is registered.
const std::map<std::string, ParamValues>& small_runs() {
  static const std::map<std::string, ParamValues> runs{
      {"d-designated", {{"n", 1024}}},
      {"s-designated", {{"n", 1024}}},
      {"transpose", {{"n", 4096}, {"w", 8}}},
      {"shuffle", {{"n", 4096}, {"w", 8}}},
      {"bit-reversal", {{"n", 4096}, {"w", 8}}},
      {"row-wise", {{"n", 4096}, {"w", 8}}},
      {"column-wise", {{"n", 4096}, {"w", 8}}},
      {"scheduled", {{"n", 4096}, {"w", 8}}},
      {"scheduled-fused", {{"n", 4096}, {"w", 8}}},
      {"crsw", {{"w", 8}, {"layout", "ras"}}},
      {"srcw", {{"w", 8}, {"layout", "rap"}}},
      {"drdw", {{"w", 8}, {"layout", "xor"}}},
      {"bmmc", {{"n", 1024}, {"random_bmmc", true}}},
      {"parm-sort", {{"n", 256}, {"w", 8}}},
      {"transpose-ip-naive", {{"order", 100}, {"w", 8}}},
      {"transpose-ip-supergrid", {{"order", 100}, {"w", 8}}},
      {"transpose-ip-v1", {{"order", 100}, {"w", 8}}},
      {"transpose-ip-v1r", {{"order", 100}, {"w", 8}}},
      {"transpose-ip-v1b", {{"order", 100}, {"w", 8}}},
      {"transpose-ip-tw", {{"order", 100}, {"w", 8}}},
      {"transpose3d-yxz-naive", {{"order", 40}, {"depth", 3}, {"w", 8}}},
      {"transpose3d-yxz-v1b", {{"order", 40}, {"depth", 3}, {"w", 8}}},
      {"transpose3d-zyx-naive", {{"order", 40}, {"depth", 3}, {"w", 8}}},
      {"transpose3d-zyx-v1b", {{"order", 40}, {"depth", 3}, {"w", 8}}},
      {"transpose-oop-nvidia", {{"rows", 100}, {"cols", 60}, {"w", 8}}},
      {"transpose-oop-v1bf", {{"rows", 100}, {"cols", 60}, {"w", 8}}},
      {"as-sort", {{"w", 8}, {"m", 8}}},
      {"as-partition", {{"w", 8}, {"m", 8}}},
      {"as-partition-sort", {{"w", 8}, {"m", 8}}},
      {"as-permute", {{"w", 8}, {"m", 8}}},
      {"as-sort-bitonic", {{"w", 8}, {"m", 8}}},
      {"as-partition-direct", {{"w", 8}, {"m", 8}}},
      {"as-permute-direct", {{"w", 8}, {"m", 8}}},
  };
  return runs;
}

}  // namespace

TEST_CASE("integers are taken exactly as written: no sign, no empty value, no wrap, no clamp") {
  const ParamSpec seed = seed_param();
  CHECK(std::get<std::int64_t>(parse_integer("0", seed)) == 0);
  CHECK(std::get<std::int64_t>(parse_integer("9223372036854775807", seed)) == std::numeric_limits<std::int64_t>::max());
  for (const char* bad : {"-1", "", "+1", " 1", "1 ", "0x10", "1e3", "9223372036854775808", "18446744073709551616",
                          "18446744073709551615", "-", "--1", "1.0"})
    CHECK_MESSAGE(!error_of(bad, seed).empty(), bad);
  CHECK(error_of("-1", seed) == "must be an integer in [0, 2^63 - 1] (got '-1')");

  const ParamSpec pow2 = integer_param("m", "-m", "columns", 1, 65536, std::nullopt, IntegerShape::PowerOfTwo);
  CHECK(error_of("64", pow2).empty());
  CHECK(error_of("1", pow2).empty());
  CHECK(error_of("3", pow2) == "must be a power of two in [1, 2^16] (got '3')");
  CHECK(!error_of("131072", pow2).empty());

  const ParamSpec square = integer_param("n", "-n", "cells", 1, 1 << 28, std::nullopt, IntegerShape::PerfectSquare);
  CHECK(error_of("9216", square).empty());
  CHECK(!error_of("9215", square).empty());

  const ParamSpec signed_param = integer_param("d", "-d", "offset", -5, 5);
  CHECK(std::get<std::int64_t>(parse_integer("-5", signed_param)) == -5);
  CHECK(!error_of("-6", signed_param).empty());
}

TEST_CASE("a quoted value in a message is cut to a few dozen characters") {
  const std::string long_text(10'000'000, 'x');
  CHECK(quote(long_text).size() < 50);
  CHECK(quote("a\nb") == "'a b'");
}

TEST_CASE("every registry entry is well formed") {
  std::set<std::string> names;
  for (const auto& a : algorithms()) {
    CAPTURE(a.name);
    CHECK(names.insert(a.name).second);
    CHECK(!a.family.empty());
    CHECK(!a.description.empty());
    CHECK(a.paper.find("papers/") == std::string::npos);  // short keys of docs/references.md
    CHECK(a.run);
    CHECK(a.size);  // every entry states what a run holds, for the memory check
    std::set<std::string> params, flags;
    for (const auto& p : a.params) {
      CAPTURE(p.name);
      CHECK(params.insert(p.name).second);
      CHECK(flags.insert(p.flag()).second);
      if (p.default_value) CHECK_NOTHROW(check_value(p, *p.default_value));  // a default obeys its own rule
      // The help's text of a default reads back as the default itself.
      if (p.default_value) CHECK(parse_value(p, *p.default_text()) == *p.default_value);
      CHECK(!(p.required && p.default_value));
    }
    CHECK(params.count("w") == 1);
    // An algorithm on a DMM has no global memory and no k.
    CHECK((params.count("L") == 1) == (a.machine == ModelKind::Hmm));
    CHECK((params.count("k") == 1) == (a.machine == ModelKind::Hmm));
  }
}

TEST_CASE("every algorithm runs through the registry with small inputs, correct, in one report schema") {
  std::vector<std::string> keys0;
  for (const auto& a : algorithms()) {
    CAPTURE(a.name);
    const auto it = small_runs().find(a.name);
    REQUIRE_MESSAGE(it != small_runs().end(), "add a small run of " << a.name << " to small_runs()");
    const RunReport r = run_algorithm(a, it->second);
    CHECK(r.correct);
    CHECK(r.algorithm == a.name);
    CHECK(r.stats.time_units > 0);
    CHECK(!r.stats.rounds.empty());
    // The top-level keys are the same for every algorithm.
    const std::string json = mmsim::to_json(r).dump(2);
    std::vector<std::string> keys;  // the lines indented once open the top-level keys
    for (std::size_t at = 0; (at = json.find("\n  \"", at)) != std::string::npos;) {
      at += 4;
      keys.push_back(json.substr(at, json.find('"', at) - at));
    }
    if (keys0.empty()) keys0 = keys;
    CHECK(keys == keys0);
  }
  CHECK(keys0.size() >= 16);
}

TEST_CASE("a parameter an algorithm does not declare, or a value against its rule, is refused naming both") {
  const AlgorithmEntry* d = find_algorithm("d-designated");
  REQUIRE(d);
  try {
    run_algorithm(*d, {{"n", 1024}, {"m", 4}});
    FAIL("accepted an undeclared parameter");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "d-designated: 'm' is not a parameter (see mmsim run d-designated --help)");
  }
  try {
    run_algorithm(*d, {{"n", 1024}, {"k", 0}});
    FAIL("accepted k = 0");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "d-designated: -k: must be an integer in [1, 4096] (got '0')");
  }
  CHECK_THROWS_AS(run_algorithm(*d, {}), InputError);  // -n is required
}

TEST_CASE("a typed value is refused with the line its text would get on the command line") {
  const AlgorithmEntry& d = *find_algorithm("d-designated");
  const auto refusal = [&](const auto& run) -> std::string {
    try {
      run();
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  for (const auto& [name, typed, text] : std::vector<std::tuple<std::string, ParamValue, std::string>>{
           {"n", std::int64_t{0}, "0"},
           {"w", std::int64_t{70000}, "70000"},
           {"perm", std::string("spiral"), "spiral"},
       }) {
    CAPTURE(name);
    const std::string typed_error = refusal([&] { run_algorithm(d, {{"n", 1024}, {name, typed}}); });
    const std::string text_error = refusal([&] { (void)parse_params(d, {{name, text}}); });
    CHECK(!typed_error.empty());
    CHECK(typed_error == text_error);
  }
  // Text where an integer is declared is a caller's bug inside the program: refused, never parsed.
  CHECK(refusal([&] {
          run_algorithm(d, {{"n", "1024"}});
        }) == "d-designated: -n: must be an integer in [1, 2^28] (got '1024')");
  // Text is parsed once, at the edge, into the values the registry takes.
  CHECK(parse_params(d, {{"n", "4096"}, {"perm", "random"}}) == ParamValues{{"n", 4096}, {"perm", "random"}});
  CHECK(parse_params(*find_algorithm("bmmc"), {{"random_bpc", "true"}}) == ParamValues{{"random_bpc", true}});
}

TEST_CASE("a run's defaults are typed values, and the report holds them as the run had them") {
  const RunReport r = run_algorithm(*find_algorithm("d-designated"), {{"n", 256}});
  CHECK(r.parameters.integer("w") == 32);
  CHECK(r.parameters.text("perm") == "random");
  CHECK(r.parameters.integer("seed") == 1);
  CHECK(r.machine.w == 32);
}

TEST_CASE("each entry states its size: cells and the options that set them, as the memory check names them") {
  const auto size_of = [](const std::string& name, const ParamValues& given, bool trace = false) {
    const AlgorithmEntry& e = *find_algorithm(name);
    const RunRequest req = check_request(e, given, {.trace = trace});
    const RunSize size = run_size(e, req);
    return std::make_tuple(size.cells, size.bytes_per_cell, size_options(e, req, size));
  };
  CHECK(size_of("row-wise", {{"n", 4096}}) == std::make_tuple(4096u, kBytesPerCell, std::string("-n 4096")));
  CHECK(size_of("d-designated", {{"n", 1024}}, true) ==
        std::make_tuple(1024u, kBytesPerCell + 128, std::string("-n 1024")));
  CHECK(size_of("as-sort", {{"w", 64}, {"m", 1024}}) ==
        std::make_tuple(65536u, kBytesPerCell, std::string("-w 64 -m 1024")));
  CHECK(size_of("crsw", {{"w", 16}}) == std::make_tuple(256u, kBytesPerCell, std::string("-w 16")));
  CHECK(std::get<0>(size_of("transpose-oop-nvidia", {{"rows", 100}, {"cols", 60}})) == 6000u);
  CHECK(std::get<2>(size_of("transpose-oop-nvidia", {{"rows", 100}, {"cols", 60}})) == "--rows 100 --cols 60");
  CHECK(std::get<0>(size_of("transpose-oop-nvidia", {{"order", 16}, {"cols", 5}})) == 80u);
  CHECK(std::get<0>(size_of("transpose-ip-v1", {{"order", 100}})) == 10000u);
  // A 3-D involution holds every plane: order^2 x depth, not order^2.
  CHECK(size_of("transpose3d-yxz-naive", {{"order", 40}, {"depth", 3}}) ==
        std::make_tuple(4800u, kBytesPerCell, std::string("--order 40 --depth 3")));
  CHECK(std::get<0>(size_of("parm-sort", {{"n", 256}})) == 256u);
  CHECK(std::get<0>(size_of("bmmc", {{"n", 1024}, {"random_bpc", true}})) == 1024u);
  // A refused size names those options, before anything is allocated.
  setenv("MMSIM_MEMORY_LIMIT", "100000", 1);
  try {
    run_algorithm(*find_algorithm("as-sort"), {{"w", 64}, {"m", 1024}});
    FAIL("a run past the memory limit was not refused");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).rfind("as-sort: -w 64 -m 1024: needs about 5 MiB of memory", 0) == 0);
  }
  unsetenv("MMSIM_MEMORY_LIMIT");
}

TEST_CASE("a prediction's machine goes to the registry as typed values, for the parameters an entry declares") {
  ParamValues v{{"n", 64}};
  set_machine(v, *find_algorithm("d-designated"), {.model = ModelKind::Hmm, .w = 16, .l = 2, .L = 50, .k = 4});
  CHECK(v == ParamValues{{"n", 64}, {"w", 16}, {"l", 2}, {"L", 50}, {"k", 4}});
  ParamValues dmm;
  set_machine(dmm, *find_algorithm("as-sort"), {.model = ModelKind::Hmm, .w = 16, .l = 2, .L = 50, .k = 4});
  CHECK(dmm == ParamValues{{"w", 16}});  // the A-S entries declare no l, L or k
}

TEST_CASE("bank_conflicts is Nsight Compute's count, extra_bank_requests the sum over banks") {
  // One warp of w = 4 on a DMM: addresses 0, 4, 8 share bank 0 and 1, 5 share bank 1. Congestion 3,
  // so 3 slots: Nsight counts 2 conflicts (wavefronts beyond the first); the banks hold 2 + 1
  // requests beyond their first.
  const Machine m(MachineParams{.model = ModelKind::Dmm, .w = 4, .l = 1});
  Engine e(m.view());
  const ArrayId a = e.add_array({"a", Space::Shared, 16});
  const std::vector<Address> addr{0, 4, 8, 1};
  const std::vector<Address> addr2{0, 4, 1, 5};
  Kernel k;
  k.name = "probe";
  k.threads_per_block = 4;
  Access first{"read", Op::Read, a, 0, [&](const Thread& t) { return addr[t.local()]; }};
  Access second{"read2", Op::Read, a, 0, [&](const Thread& t) { return addr2[t.local()]; }};
  k.steps = {first, second};
  e.launch(k);
  const auto& r = e.stats().rounds;
  CHECK(r[0].slots == 3);
  CHECK(r[0].bank_conflicts == 2);
  CHECK(r[0].extra_bank_requests == 2);
  // Two banks of two: congestion 2, one conflict by Nsight's count, two extra requests.
  CHECK(r[1].slots == 2);
  CHECK(r[1].bank_conflicts == 1);
  CHECK(r[1].extra_bank_requests == 2);
}

TEST_CASE("a table whose correct column says NO is reported, naming the first such row") {
  report::Table t;
  t.columns = {"algorithm", "permutation", "correct"};
  t.add_row({std::string("d-designated"), std::string("random"), std::string("yes")});
  t.add_row({std::string("scheduled"), std::string("random"), std::string("not run: n is not a square")});
  CHECK_FALSE(report::failed_rows(t));
  t.add_row({std::string("transpose"), std::string("transpose"), std::string("NO")});
  t.add_row({std::string("shuffle"), std::string("shuffle"), std::string("NO")});
  REQUIRE(report::failed_rows(t));
  CHECK(*report::failed_rows(t) == "2 rows failed the correctness check (first: row 3, transpose transpose)");
  report::Table without;
  without.columns = {"w", "congestion"};
  without.add_row({32LL, 1.5});
  CHECK_FALSE(report::failed_rows(without));
}
