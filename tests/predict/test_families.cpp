// The families beyond KNI Table II in `mmsim validate`: a measured row written here is read,
// mapped to the run that mirrors its kernel and priced as its GPU figure was measured.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <utility>

#include "algorithms/registry.h"
#include "predict/instruction_bench.h"
#include "predict/simulate.h"
#include "predict/tile_cost.h"
#include "predict/validate/family.h"
#include "predict/validate/summary_tables.h"
#include "tests/predict/small_gpu.h"

using namespace mmsim;
using namespace mmsim::predict;

namespace {

constexpr double kLaunch = 0.004, kSlot = 2e-8, kUnit = 5e-7;  // the papers' model's constants

// The shared small GPU with a clock and the papers' model (cycle counts and their prices need both).
predict::GpuProfile small_profile() {
  predict::GpuProfile p = small_gpu_profile();
  p.gpu.sm_clock_khz = 2000000;
  predict::CostModel papers = predict::unfitted(predict::fitted_models()[0]);
  REQUIRE(papers.name == "papers");
  papers.prices[0].ms = kLaunch;  // launches, UMM slots, shared-memory time units
  papers.prices[1].ms = kSlot;
  papers.prices[2].ms = kUnit;
  p.models = {papers};
  return p;
}

struct Folder {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "mmsim_test_families";
  Folder() { std::filesystem::create_directories(dir); }
  explicit Folder(std::filesystem::path at) : dir(std::move(at)) { std::filesystem::create_directories(dir); }
  ~Folder() { std::filesystem::remove_all(dir); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir / name) << text; }
};

// The DMM time units of a one-warp registry run, straight from the registry.
double dmm_time_units(const std::string& algorithm, ParamValues given) {
  const AlgorithmEntry* entry = find_algorithm(algorithm);
  for (const ParamSpec& spec : entry->params)
    if (spec.name == "w" || spec.name == "l") given.set(spec.name, std::int64_t{spec.name == "w" ? 32 : 1});
  const RunReport r = run_algorithm(*entry, given, {});
  return static_cast<double>(r.stats.time_units);
}

}  // namespace

TEST_CASE("rap-t3: one transpose priced by its shared time units against the GPU's ns") {
  const Folder f;
  f.write("rap-t3.csv",
          "transpose,layout,time_units_dmm,gpu_ns_float_median,correct\n"
          "srcw,raw,1056,500.0,yes\n"
          "crsw,rap,64,40.0,yes\n");
  const predict::GpuProfile p = small_profile();
  const auto rows = validate::read_rap(f.dir, {}, p);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].ms == doctest::Approx(500e-6));
  CHECK(rows[1].seeds > 1);  // a random layout: averaged over draws
  const auto predicted = predict_runs(p, rows, SimulationPlan{2, ~std::uint64_t{0}, nullptr, nullptr, {}});
  REQUIRE(predicted.size() == 2);
  CHECK(predicted[0].correct);
  CHECK(predicted[0].predicted[0] == doctest::Approx(kUnit * dmm_time_units("srcw", {{"layout", "raw"}})));
  // rap is conflict-free in every draw: each draw takes the time units of seed 1.
  CHECK(predicted[1].predicted[0] == doctest::Approx(kUnit * dmm_time_units("crsw", {{"layout", "rap"}})));
  const report::Table t = prediction_table(p, predicted);
  CHECK(t.rows.size() == 2);

  f.write("rap-t3.csv", "transpose,layout,gpu_ns_float_median,correct\ncrsw,raw,fast,yes\n");
  try {
    validate::read_rap(f.dir, {}, p);
    FAIL("a non-number ns was read");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("line 2") != std::string::npos);
  }
}

TEST_CASE("as-gpu: many instances as one launch and waves per SM, one instance alone in cycles") {
  const Folder f;
  f.write("as-gpu.csv",
          "algorithm,w,m,instances,sim_steps,ms,correct,gpu_cycles_alone\n"
          "as-sort,32,4,9,891,0.05,yes,40000\n");
  const predict::GpuProfile p = small_profile();
  const auto rows = validate::read_as(f.dir, {}, p);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].ms == doctest::Approx(40000.0 / 2000000));
  const auto predicted = predict_runs(p, rows, SimulationPlan{1, ~std::uint64_t{0}, nullptr, nullptr, {}});
  const double units = dmm_time_units("as-sort", {{"m", 4}});
  CHECK(predicted[0].correct);
  CHECK(predicted[0].predicted[0] == doctest::Approx(kLaunch + 3 * kUnit * units));  // ceil(9 / 4) waves
  CHECK(predicted[1].predicted[0] == doctest::Approx(kUnit * units));
}

TEST_CASE("bmmc: the recorded matrix is the one simulated, by the named kernel") {
  const Folder f;
  // The 2^10 bit-reversal as mmsim gpu bmmc records it: row i has its 1 in column 9 - i.
  std::string matrix;
  for (int i = 0; i < 10; ++i)
    matrix += std::string(static_cast<std::size_t>(9 - i), '0') + "1" + std::string(i, '0') + "\n";
  matrix += "0000000000\n";
  f.write("bmmc-matrices.txt", "# Matrices of a test\n# 2^10 bit-reversal\n" + matrix);
  f.write("bmmc.csv",
          "device,log2_n,n,permutation,kernel,median_ms,correct\n"
          "\"a GPU, 4 SMs\",10,1024,bit-reversal,tile,0.01,yes\n"
          "\"a GPU, 4 SMs\",11,2048,bit-reversal,tile,0.01,yes\n");
  const predict::GpuProfile p = small_profile();
  const auto rows = validate::read_bmmc(f.dir, {0, 1024, "float", {}}, p);
  REQUIRE(rows.size() == 1);  // 2^11 is past --max-n
  const auto predicted = predict_runs(p, rows, SimulationPlan{1, ~std::uint64_t{0}, nullptr, nullptr, {}});
  CHECK(predicted[0].correct);
  const auto direct = predict::count_algorithm(p, *find_algorithm("bmmc"),
                                               {{"n", 1024}, {"bpc", "bit-reversal"}, {"kernel", "tile"}}, 4, 1);
  CHECK(predicted[0].predicted[0] == doctest::Approx(predict::predicted_ms(p.models[0], direct.counts)));
  CHECK(predicted[0].counts.memory.umm_groups == direct.counts.memory.umm_groups);
  CHECK_FALSE(rows[0].tile_floor);

  // With the tile microbenchmarks, made by 5000 cycles fixed and rounds of 1500 + 100 a load (the
  // throughput at 0.5 and 1.25 cycles a word), the run is bound below by its one launch: a tile of
  // 1024 threads (bit reversal of 10 bits: no overlap), one block, 2 resident a SM, one wave of one
  // load within the L2, 6600 cycles at 2 GHz.
  // (An L2 of 30 MiB, as the GPUs' profiles fit it: two of the benches' sizes within it, two beyond.)
  predict::GpuProfile q = p;
  q.memory.cache_bytes = 30 << 20;
  std::string tiles = "bench,loads,blocks_per_sm,mib,in_place,threads_per_block,ms,correct\n";
  for (const predict::TileBench& b : predict::tile_benches()) {
    const predict::TileSample x = predict::tile_sample(b, q.machine.k, static_cast<double>(q.memory.cache_bytes), 1);
    const double cycles =
        5000 + std::max(x.waves * (1500 + 100 * x.loads), x.words_per_sm * (x.beyond_l2 ? 1.25 : 0.5));
    tiles += b.name() + "," + std::to_string(b.loads) + "," + std::to_string(b.blocks_per_sm) + "," +
             std::to_string(b.mib) + "," + (b.in_place ? "yes" : "no") + "," + std::to_string(b.threads) + "," +
             std::to_string(cycles / 2e6) + ",yes\n";
  }
  f.write("instructions-tiles.csv", tiles);
  CHECK(validate::resident_blocks(1024, 1024 * 4 + 384) == 2);
  CHECK(validate::resident_blocks(256, 256) == 8);
  CHECK(validate::resident_blocks(32, 100 * 1024) == 2);  // shared memory binds
  const auto bound = validate::read_bmmc(f.dir, {0, 1024, "float", {}}, q);
  REQUIRE(bound[0].tile_floor);
  REQUIRE(bound[0].tile_floor->launches.size() == 1);
  CHECK(bound[0].tile_floor->launches[0].waves == 1);
  CHECK(bound[0].tile_floor->launches[0].loads == 1);
  CHECK(bound[0].tile_floor->ms() == doctest::Approx(6600 / 2e6).epsilon(1e-4));
  CHECK_FALSE(bound[0].tile_floor->launches[0].beyond_l2);
  auto unbound = bound;
  unbound[0].tile_floor.reset();
  const double model =
      predict_runs(q, unbound, SimulationPlan{1, ~std::uint64_t{0}, nullptr, nullptr, {}})[0].predicted[0];
  const auto floored = predict_runs(q, bound, SimulationPlan{1, ~std::uint64_t{0}, nullptr, nullptr, {}});
  CHECK(floored[0].predicted[0] == doctest::Approx(std::max(model, 6600 / 2e6)).epsilon(1e-4));
  f.write("instructions-tiles.csv", tiles + "tile-k1-b1-m4,1,1,4,no,256,0.01,NO\n");
  CHECK_THROWS_WITH_AS(validate::read_bmmc(f.dir, {0, 1024, "float", {}}, q), doctest::Contains("line 194"),
                       std::invalid_argument);
  std::filesystem::remove(f.dir / "instructions-tiles.csv");

  f.write("bmmc-matrices.txt", "# 2^10 random BPC\n" + matrix);
  CHECK_THROWS_AS(validate::read_bmmc(f.dir, {0, 1024, "float", {}}, p), std::invalid_argument);
}

TEST_CASE("parm: each variant is the registry's parm-sort, direct or through the named kernel") {
  const Folder f;
  f.write("parm-gpu.csv",
          "device,log2_n,n,variant,launches,median_ms,correct\n"
          "\"a GPU, 4 SMs\",10,1024,direct,1,0.02,yes\n"
          "\"a GPU, 4 SMs\",10,1024,tile-banks,1,0.03,yes\n"
          "\"a GPU, 4 SMs\",11,2048,naive,1,0.04,yes\n");
  const predict::GpuProfile p = small_profile();
  const auto rows = validate::read_parm(f.dir, {0, 1024, "float", {}}, p);
  REQUIRE(rows.size() == 2);  // 2^11 is past --max-n
  CHECK(rows[0].params.flag("direct"));
  CHECK(rows[1].params.text("kernel") == "tile-banks");
  CHECK(rows[1].permutation == "tile-banks");
  const auto predicted = predict_runs(p, rows, SimulationPlan{1, ~std::uint64_t{0}, nullptr, nullptr, {}});
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(predicted[i].correct);
    ParamValues given{{"n", 1024}};
    if (i == 0)
      given.set("direct", true);
    else
      given.set("kernel", "tile-banks");
    const auto direct = predict::count_algorithm(p, *find_algorithm("parm-sort"), given, 4, 1);
    CHECK(predicted[i].predicted[0] == doctest::Approx(predict::predicted_ms(p.models[0], direct.counts)));
    CHECK(predicted[i].counts.launches == direct.counts.launches);
  }
  // The direct network makes fewer launches than the one that permutes between its stages.
  CHECK(predicted[0].counts.launches < predicted[1].counts.launches);
  // Its rows are what a counts file can hold.
  CHECK(counts_rows(p, predicted).size() == 2);

  // Up to 2^20 a row is simulated (sampled, a minute or so); past it, shown, not simulated (hours
  // at 2^24).
  f.write("parm-gpu.csv",
          "device,log2_n,n,variant,launches,median_ms,correct\nx,20,1048576,naive,1,0.5,yes\n"
          "x,21,2097152,naive,1,0.9,yes\n");
  const auto large = validate::read_parm(f.dir, {0, std::uint64_t{1} << 24, "float", {}}, p);
  REQUIRE(large.size() == 2);
  CHECK(large[0].algorithm == "parm-sort");
  CHECK(large[1].algorithm.empty());

  f.write("parm-gpu.csv", "device,log2_n,n,variant,launches,median_ms,correct\nx,10,1024,bogus,1,0.02,yes\n");
  CHECK_THROWS_AS(validate::read_parm(f.dir, {0, 1024, "float", {}}, p), std::invalid_argument);
}

TEST_CASE("enumeration: the GPU's kind and variant name the registry's transpose") {
  const Folder f;
  f.write("enumeration.csv",
          "kind,algorithm,rows,cols,band,region,median_ms,status\n"
          "in-place,v1b,256,256,4,0,0.01,ok\n"
          "out-of-place,nvidia,128,256,0,0,0.01,ok\n"
          "sideways,v1,256,256,0,0,0.01,ok\n");
  const predict::GpuProfile p = small_profile();
  CHECK_THROWS_AS(validate::read_enumeration(f.dir, {}, p), std::invalid_argument);
  f.write("enumeration.csv",
          "kind,algorithm,rows,cols,band,region,median_ms,status\n"
          "in-place,v1b,256,256,4,0,0.01,ok\n"
          "out-of-place,nvidia,128,256,0,0,0.01,ok\n");
  const auto rows = validate::read_enumeration(f.dir, {}, p);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].algorithm == "transpose-ip-v1b");
  CHECK(rows[0].params.integer("band") == 4);
  CHECK(rows[1].algorithm == "transpose-oop-nvidia");
  const auto predicted = predict_runs(p, rows, SimulationPlan{2, ~std::uint64_t{0}, nullptr, nullptr, {}});
  for (const auto& r : predicted) {
    CHECK(r.correct);
    CHECK(r.counts.launches >= 1);
    CHECK(r.predicted[0] > kLaunch);
  }
}

TEST_CASE("as-gpu: with the instruction microbenchmarks and the kernels' counts, priced by the instruction term") {
  const Folder f;
  f.write("as-gpu.csv",
          "algorithm,w,m,instances,sim_steps,ms,correct,gpu_cycles_alone\n"
          "as-sort,32,4,9,891,0.05,yes,40000\n");
  const predict::GpuProfile p = small_profile();
  // Without the counts: the time units alone, a known failure.
  f.write("instructions.csv", "bench\n");
  CHECK(validate::read_as(f.dir, {}, p)[1].pricing == Pricing::SharedOnly);
  CHECK_FALSE(validate::read_as(f.dir, {}, p)[1].known_failure.empty());
  // Microbenchmarks made by lone costs a = 2, b = 20, c = 3 and many p = 0.25, q = 0.5, r = 1 at the
  // profile's 2 GHz (a many bench's ms: its SM's cycles / clock; the profile records no empty launch).
  std::string timed = "bench,kind,setting,cycles,ms,sim_steps,sim_extra_slots,correct\n",
              counted = "bench,warp_instructions\n";
  const struct {
    const char* bench;
    double instructions, steps, extra;
  } benches[] = {{"alu-chain", 4000, 0, 0},
                 {"shared-chase-c1", 5000, 1000, 0},
                 {"shared-chase-c8", 5000, 1000, 7000},
                 {"branchy-c2", 9000, 1000, 1000}};
  for (const auto& b : benches) {
    const std::string kind = std::string(b.bench).substr(0, std::string(b.bench).find("-c"));
    const double lone = 2 * b.instructions + 20 * b.steps + 3 * b.extra;
    const double sm = 32 * (0.25 * b.instructions + 0.5 * b.steps + 1 * b.extra);
    timed += std::string(b.bench) + "," + kind + ",lone," + std::to_string(lone) + ",," + std::to_string(b.steps) +
             "," + std::to_string(b.extra) + ",yes\n";
    timed += std::string(b.bench) + "," + kind + ",many,," + std::to_string(sm / 2000000) + "," +
             std::to_string(b.steps) + "," + std::to_string(b.extra) + ",yes\n";
    counted += std::string(b.bench) + "," + std::to_string(b.instructions) + "\n";
  }
  f.write("instructions.csv", timed);
  f.write("instructions-ncu.csv", counted);
  f.write("as-ncu.csv",
          "algorithm,m,ncu_warp_instructions,copy_warp_instructions\n"
          "as-sort,4,30000,1000\n");
  // The same files in another folder (Selection::instructions) price a folder that has only as-gpu.csv.
  {
    const Folder other{std::filesystem::temp_directory_path() / "mmsim_test_families_sibling"};
    std::filesystem::copy_file(f.dir / "as-gpu.csv", other.dir / "as-gpu.csv");
    CHECK(validate::read_as(other.dir, {}, p)[1].pricing == Pricing::SharedOnly);
    validate::Selection from_sibling;
    from_sibling.instructions = f.dir;
    const auto priced = validate::read_as(other.dir, from_sibling, p);
    CHECK(priced[1].pricing == Pricing::Instructions);
    CHECK(priced[1].work.warp_instructions == 29000);
  }
  const auto rows = validate::read_as(f.dir, {}, p);
  REQUIRE(rows.size() == 2);
  for (const auto& r : rows) {
    CHECK(r.pricing == Pricing::Instructions);
    CHECK(r.known_failure.empty());
    CHECK(r.work.warp_instructions == 29000);  // the launch's less the copy's
  }
  const auto predicted = predict_runs(p, rows, SimulationPlan{1, ~std::uint64_t{0}, nullptr, nullptr, {}});
  const double units = dmm_time_units("as-sort", {{"m", 4}}), extra = units - 891;
  const double lone = 2 * 29000.0 + 20 * 891 + 3 * extra;
  const double throughput = 3 * 32 * (0.25 * 29000.0 + 0.5 * 891 + 1 * extra) / 32;  // ceil(9 / 4) = 3 warps per SM
  CHECK(predicted[1].predicted[0] == doctest::Approx(lone / 2000000));
  CHECK(predicted[0].predicted[0] == doctest::Approx(kLaunch + std::max(lone, throughput) / 2000000));
  // The summary says how the rows were priced.
  const auto header = prediction_summary(p, predicted).header;
  CHECK(std::any_of(header.begin(), header.end(), [](const std::string& h) {
    return h.rfind("instruction term (the rows priced with it): a warp alone additive", 0) == 0;
  }));
  // With the copy microbenchmarks, made by 500 cycles + rows x max(300, warps x 40) (whole launches:
  // the 500 hold the launch), a launch of many is its 3 warps' copies of 4 rows, 500 + 4 x 300, and
  // their work, without the model's launch.
  CHECK(std::none_of(header.begin(), header.end(), [](const std::string& h) { return h.find("copy term") == 0; }));
  std::string copies = "bench,rows,warps_per_sm,ms,correct\n";
  for (const predict::CopyBench& b : predict::copy_benches())
    copies += b.name() + "," + std::to_string(b.rows) + "," + std::to_string(b.warps_per_sm) + "," +
              std::to_string((500 + b.rows * std::max(300.0, 40.0 * b.warps_per_sm)) / 2000000) + ",yes\n";
  f.write("instructions-copy.csv", copies);
  const auto with_copy =
      predict_runs(p, validate::read_as(f.dir, {}, p), SimulationPlan{1, ~std::uint64_t{0}, nullptr, nullptr, {}});
  CHECK(with_copy[0].predicted[0] ==
        doctest::Approx(predicted[0].predicted[0] - kLaunch + 1700.0 / 2000000).epsilon(1e-6));
  CHECK(with_copy[1].predicted[0] ==
        doctest::Approx(predicted[1].predicted[0]));  // alone: clock64 leaves the copies out
  // Each row's interval: alone, the lone fit's; many, the largest of the lone, many and copy fits'.
  const predict::InstructionWork& many_work = with_copy[0].measured.work;
  CHECK(with_copy[1].measured.work.interval_factor() == with_copy[1].measured.work.costs.lone.interval_factor);
  CHECK(many_work.interval_factor() ==
        std::max({many_work.costs.lone.interval_factor, many_work.costs.many.interval_factor,
                  many_work.copy->interval_factor}));
  const auto copy_header = prediction_summary(p, with_copy).header;
  CHECK(std::any_of(copy_header.begin(), copy_header.end(), [](const std::string& h) {
    return h.rfind("copy term (the launches of many priced with it): bound, 500 cycles", 0) == 0;
  }));
  // A wrong copy is refused, naming its line.
  f.write("instructions-copy.csv", copies + "copy-r6-w2,6,2,0.001,NO\n");
  CHECK_THROWS_WITH_AS(validate::read_as(f.dir, {}, p), doctest::Contains("line 16"), std::invalid_argument);
  std::filesystem::remove(f.dir / "instructions-copy.csv");
  // A wrong microbenchmark output is refused, naming its line.
  f.write("instructions.csv", timed + "alu-chain,alu-chain,lone,5,,0,0,NO\n");
  CHECK_THROWS_WITH_AS(validate::read_as(f.dir, {}, p), doctest::Contains("line 10"), std::invalid_argument);
}

TEST_CASE("validate --tables: a run with its own interval factor is held to it, and its family says so") {
  // The H100 profile of 2026-11-23 (its model choice: dram-rows, x/1.55) beside a table of five A-S rows
  // with their own factor 1.4 and five shared-transpose rows without one, dram-rows errors alike.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "mmsim_test_intervals" / "gpu-h100";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(
      std::filesystem::path(MMSIM_SOURCE_DIR) / "results/gpu-h100/calibration-2026-11-23/profile-h100.json",
      dir / "profile-h100.json", std::filesystem::copy_options::overwrite_existing);
  std::string csv =
      "family,kernel,permutation,type,n,measured_ms,simulated,papers_ms,papers_error,dram_rows_ms,dram_rows_error,"
      "rmw_rows_ms,rmw_rows_error,model_known_to_fail,correct,interval_factor\n";
  const double errors[] = {0.1, 0.3, -0.3, 0.5, -0.05};
  for (const char* family : {"A-S, one alone", "shared transpose"})
    for (const double e : errors) {
      const std::string ms = std::to_string(1 + e), err = std::to_string(e);
      csv += "\"" + std::string(family) + "\",k,p,float,1024,1,k," + ms + "," + err + "," + ms + "," + err + "," + ms +
             "," + err + ",,yes," + (family[0] == 'A' ? "1.4" : "") + "\n";
    }
  std::ofstream(dir / "validate.csv") << csv;
  const std::string md = prediction_tables_markdown({validate_folder(dir)}, "test");
  std::filesystem::remove_all(dir.parent_path());
  // Within x/1.4: 0.1, 0.3 and -0.05 (|ln 0.7| = 0.357 and ln 1.5 = 0.405 exceed ln 1.4 = 0.336);
  // within the profile's x/1.55 (ln 1.55 = 0.438), all five.
  CHECK(md.find("| A-S, one alone (unseen; its own interval x/1.40) | 5 | 0.30, 1.50x | 60 % |") != std::string::npos);
  CHECK(md.find("| shared transpose (unseen) | 5 | 0.30, 1.50x | 100 % |") != std::string::npos);
  CHECK(md.find("| every algorithm run (unseen; 5 with their own interval x/1.40) | 10 | 0.30, 1.50x | 80 % |") !=
        std::string::npos);
}

TEST_CASE("validate --tables: a folder of another name is named by the one profile it holds") {
  const std::filesystem::path root = std::filesystem::temp_directory_path() / "mmsim_test_folder_names";
  const std::filesystem::path recal = root / "recalibration-x", two = root / "two", none = root / "none";
  for (const auto& d : {recal, two, none}) std::filesystem::create_directories(d);
  // The H100 profile of 2026-11-23: its model choice is dram-rows, x/1.55.
  const std::filesystem::path committed =
      std::filesystem::path(MMSIM_SOURCE_DIR) / "results/gpu-h100/calibration-2026-11-23/profile-h100.json";
  const auto copy = [&](const std::filesystem::path& to) {
    std::filesystem::copy_file(committed, to, std::filesystem::copy_options::overwrite_existing);
  };
  copy(recal / "profile-h100.json");
  copy(two / "profile-h100.json");
  copy(two / "profile-h200.json");
  const ValidateFolder r = validate_folder(recal), t = validate_folder(two), n = validate_folder(none);
  const ValidateFolder g = validate_folder(root / "gpu-h200");
  CHECK(r.gpu == "H100, recalibration-x");
  CHECK(r.profile == recal / "profile-h100.json");
  // Two profiles or none: which would be its own is not known, and no intervals table is made.
  CHECK(t.gpu == "TWO");
  CHECK(t.profile.empty());
  CHECK(n.gpu == "NONE");
  CHECK(n.profile.empty());
  CHECK(g.gpu == "H200");
  CHECK(g.profile == root / "gpu-h200" / "profile-h200.json");
  // The recalibration's table and its intervals, as for a GPU folder.
  std::ofstream(recal / "validate.csv")
      << "family,kernel,permutation,type,n,measured_ms,simulated,papers_ms,papers_error,dram_rows_ms,"
         "dram_rows_error,rmw_rows_ms,rmw_rows_error,model_known_to_fail,correct\n"
         "shared transpose,k,p,float,1024,1,k,1.1,0.1,1.2,0.2,1.1,0.1,,yes\n";
  const std::string md = prediction_tables_markdown({r}, "test");
  // A table priced with another profile than the folder's (another date, another L2) is refused,
  // naming its file: its errors and the profile's choice and interval would not belong together.
  for (const std::string& stamp : {"2026-11-23,26214400", "2026-01-01,32768000"}) {
    CAPTURE(stamp);
    std::ofstream(recal / "validate.csv")
        << "family,kernel,permutation,type,n,measured_ms,simulated,papers_ms,papers_error,dram_rows_ms,"
           "dram_rows_error,rmw_rows_ms,rmw_rows_error,model_known_to_fail,correct,profile_date,cache_bytes\n"
           "shared transpose,k,p,float,1024,1,k,1.1,0.1,1.2,0.2,1.1,0.1,,yes,"
        << stamp << "\n";
    CHECK_THROWS_WITH_AS(prediction_tables_markdown({r}, "test"),
                         doctest::Contains("validate.csv: priced with the profile of"), std::invalid_argument);
  }
  std::ofstream(recal / "validate.csv")
      << "family,kernel,permutation,type,n,measured_ms,simulated,papers_ms,papers_error,dram_rows_ms,"
         "dram_rows_error,rmw_rows_ms,rmw_rows_error,model_known_to_fail,correct,profile_date,cache_bytes\n"
         "shared transpose,k,p,float,1024,1,k,1.1,0.1,1.2,0.2,1.1,0.1,,yes,2026-11-23,32768000\n";
  CHECK(prediction_tables_markdown({r}, "test") == md);  // its own profile's date and L2: the same tables
  std::filesystem::remove_all(root);
  // The last column is the model the folder's profile chose (dram-rows), apart from the shared ones.
  CHECK(md.find("| GPU | family | papers | dram-rows | rmw-rows | chosen (H100, recalibration-x dram-rows) |") !=
        std::string::npos);
  CHECK(md.find("| H100, recalibration-x | shared transpose (1; 0) | 0.10, 1.10x | 0.20, 1.20x | 0.10, 1.10x | "
                "0.20, 1.20x |") != std::string::npos);
  CHECK(md.find("| H100, recalibration-x (dram-rows, interval x/1.55) |") != std::string::npos);
}
