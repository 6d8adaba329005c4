// Schedule files (algorithms/offline/schedule_file.h): a round trip, and every kind of damage or
// mismatch refused with InputError rather than trusted.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "algorithms/offline/entries.h"
#include "algorithms/offline/schedule_file.h"
#include "algorithms/permutations/permutation.h"

using namespace mmsim;
using namespace mmsim::offline;

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("mmsim_test_offline_" + name)).string();
}

std::vector<unsigned char> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// The damage tests' start: a three-step schedule (w = 4) of a random permutation written to
// `good` and read back as `bytes`, and `bad`, where each damaged copy goes; both removed at the end.
struct WrittenSchedule {
  Permutation p;
  std::string good, bad;
  std::vector<unsigned char> bytes;
  WrittenSchedule(std::uint64_t n, std::uint64_t seed, const std::string& prefix)
      : p(named_permutation("random", n, seed)),
        good(temp_path(prefix + "good.sched")),
        bad(temp_path(prefix + "bad.sched")) {
    write_schedule_file(good, three_step_schedule(p.p, 4), p.p);
    bytes = slurp(good);
  }
  ~WrittenSchedule() {
    std::filesystem::remove(good);
    std::filesystem::remove(bad);
  }
};

void put64(std::vector<unsigned char>& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<unsigned char>(v >> (8 * i));
}

// Rewrites the payload hash after an edit of the tables, so only the deeper checks can object.
void rehash(std::vector<unsigned char>& b) {
  std::vector<std::uint32_t> words((b.size() - kScheduleHeaderBytes) / 4);
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::uint32_t x = 0;
    for (int k = 0; k < 4; ++k)
      x |= std::uint32_t{b[kScheduleHeaderBytes + 4 * i + static_cast<std::size_t>(k)]} << (8 * k);
    words[i] = x;
  }
  put64(b, 48, hash64(words));
}

}  // namespace

TEST_CASE("schedule file: round trip and the documented header") {
  const std::uint64_t n = 576;  // N = 24, w = 8
  const Permutation p = named_permutation("random", n, 5);
  const auto s = three_step_schedule(p.p, 8);
  const std::string path = temp_path("roundtrip.sched");
  write_schedule_file(path, s, p.p);
  const auto bytes = slurp(path);
  REQUIRE(bytes.size() == kScheduleHeaderBytes + 24 * n);
  CHECK(std::string(bytes.begin(), bytes.begin() + 8) == "MMSIMSCH");
  CHECK(bytes[8] == 1);   // version, little-endian
  CHECK(bytes[12] == 8);  // w
  const auto back = read_schedule_file(path, p.p, 8);
  for (int t = 0; t < 3; ++t) {
    CHECK(back.step[t].s == s.step[t].s);
    CHECK(back.step[t].d == s.step[t].d);
  }
  // The scheduled algorithm runs from the file and is correct.
  PermutationInput in;
  in.perm = &p;
  in.schedule_file = path;
  MachineParams m;
  m.w = 8;
  const auto run = find_permutation_algorithm("scheduled")->run(Machine(m), in, {});
  CHECK(run.correct);
  CHECK(run.stats.time_units == *run.predicted_time_units);
  std::filesystem::remove(path);
}

TEST_CASE("schedule file: the checksum is checked before the tables are trusted") {
  // A flipped byte anywhere in the tables must be caught by the payload hash, not by the deeper
  // checks of the tables (which would mean that damaged content was read as a schedule first).
  const WrittenSchedule file(64, 3, "checksum_");  // N = 8, w = 4
  const Permutation& p = file.p;
  const std::vector<unsigned char>& bytes = file.bytes;
  for (std::size_t at = kScheduleHeaderBytes; at < bytes.size(); at += 37) {
    auto b = bytes;
    b[at] ^= 0x01;
    spit(file.bad, b);
    CAPTURE(at);
    try {
      (void)read_schedule_file(file.bad, p.p, 4);
      FAIL("a flipped byte was accepted");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find("payload hash differs") != std::string::npos);
    }
  }
}

TEST_CASE("schedule file: damage and mismatches are refused") {
  const std::uint64_t n = 256;  // N = 16, w = 4
  const WrittenSchedule file(n, 6, "");
  const Permutation& p = file.p;
  const std::vector<unsigned char>& bytes = file.bytes;
  const auto refused = [&](const std::vector<unsigned char>& b, const Permutation& perm, int w) {
    spit(file.bad, b);
    CHECK_THROWS_AS(read_schedule_file(file.bad, perm.p, w), InputError);
  };
  // Truncated anywhere: in the header, in the payload, one byte short.
  for (const std::size_t keep :
       {std::size_t{0}, std::size_t{10}, std::size_t{63}, std::size_t{64}, std::size_t{1000}, bytes.size() - 1})
    refused(std::vector<unsigned char>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(keep)), p, 4);
  // Trailing garbage.
  auto longer = bytes;
  longer.push_back(0);
  refused(longer, p, 4);
  // A flipped bit in each part of the header and in the payload.
  for (const std::size_t at :
       {std::size_t{0}, std::size_t{8}, std::size_t{12}, std::size_t{16}, std::size_t{24}, std::size_t{32},
        std::size_t{40}, std::size_t{48}, std::size_t{56}, std::size_t{64}, bytes.size() / 2, bytes.size() - 1}) {
    auto b = bytes;
    b[at] ^= 0x10;
    CAPTURE(at);
    refused(b, p, 4);
  }
  // Another permutation, another w.
  refused(bytes, named_permutation("random", n, 7), 4);
  refused(bytes, p, 8);
  refused(bytes, named_permutation("random", 1024, 6), 4);
  // Tables edited with a recomputed hash: out of range, repeated, conflicting, or composing to
  // something else must still be caught.
  {
    auto b = bytes;
    b[64 + 3] = 0x7f;  // s1[0] huge
    rehash(b);
    refused(b, p, 4);
  }
  {
    auto b = bytes;
    for (int k = 0; k < 4; ++k)
      b[64 + 4 + static_cast<std::size_t>(k)] = b[64 + static_cast<std::size_t>(k)];  // s1[1] = s1[0]
    rehash(b);
    refused(b, p, 4);
  }
  {
    // Swap two rows' worth of step-3 destinations between rows: still permutations per row? No:
    // swap d3 entries 0 and 1 of row 0 (same warp, banks stay distinct): the schedule is valid
    // but composes to another permutation.
    auto b = bytes;
    const std::size_t d3 = 64 + 5 * n * 4;
    for (int k = 0; k < 4; ++k) std::swap(b[d3 + static_cast<std::size_t>(k)], b[d3 + 4 + static_cast<std::size_t>(k)]);
    rehash(b);
    refused(b, p, 4);
  }
  {
    // s1 entries of two different warps of row 0 swapped: the same row permutation entries but a
    // warp now reads one bank twice unless the banks happen to agree; either way it is refused
    // (conflict or wrong composition).
    auto b = bytes;
    const std::size_t s1 = 64;
    for (int k = 0; k < 4; ++k)
      std::swap(b[s1 + static_cast<std::size_t>(k)], b[s1 + 4 * 5 + static_cast<std::size_t>(k)]);
    rehash(b);
    refused(b, p, 4);
  }
  CHECK_THROWS_AS(read_schedule_file(temp_path("missing.sched"), p.p, 4), InputError);
}
