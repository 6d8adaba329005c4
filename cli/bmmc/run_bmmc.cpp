// `mmsim run bmmc` (BPC and BMMC permutations, papers/002 Sect. 4-5) and `mmsim run parm-sort`
// (the parm sorting network, Sect. 7) on the simulated HMM.
#include <fstream>

#include "algorithms/bmmc/bmmc_time.h"
#include "algorithms/bmmc/parm.h"
#include "algorithms/bmmc/tiled.h"
#include "cli/run_family.h"
#include "experiments/run_report.h"

namespace mmsim::cli {

namespace {

// --kernel and --iters may be wanted by other families of `mmsim run` too: take the option if it is
// already there, and read its value by name when the run starts.
CLI::Option* option_once(CLI::App& run, const std::string& name, const std::string& description) {
  if (CLI::Option* o = run.get_option_no_throw(name)) return o;
  return run.add_option(name)->description(description)->type_name("TEXT");
}

std::optional<std::string> value_of(CLI::Option* o) {
  if (o->count() == 0) return std::nullopt;
  return o->as<std::string>();
}

int bits_of(std::uint64_t n) {
  if (n < 2 || (n & (n - 1)) != 0) throw InputError("-n: must be a power of two >= 2 (n = " + std::to_string(n) + ")");
  // 2^24 cells keep a run within a few hundred MB of host memory and a few seconds.
  if (n > (std::uint64_t{1} << 24)) throw InputError("-n: at most 2^24 = 16777216 on the simulator");
  return __builtin_ctzll(n);
}

bmmc::BmmcOptions kernel_options(CLI::Option* kernel, CLI::Option* iters) {
  bmmc::BmmcOptions o;
  if (const auto k = value_of(kernel)) {
    const auto parsed = bmmc::parse_kernel(*k);
    if (!parsed) throw InputError("--kernel: one of naive, tile, tile-banks, tile-banks-iters (got '" + *k + "')");
    o.kernel = *parsed;
  }
  if (const auto i = value_of(iters)) {
    try {
      std::size_t used = 0;
      o.iters = std::stoi(*i, &used);
      if (used != i->size()) throw std::invalid_argument(*i);
    } catch (const std::exception&) {
      throw InputError("--iters: an integer (got '" + *i + "')");
    }
  }
  return o;
}

f2::Bmmc named_bpc(const std::string& name, int bits) {
  if (name == "bit-reversal") return f2::bit_reversal(bits);
  if (name == "transpose") return f2::transpose(bits / 2, bits - bits / 2);
  if (name == "shuffle") return f2::shuffle(bits);
  if (name == "unshuffle") return f2::unshuffle(bits);
  if (name == "reverse") return f2::complement(bits, f2::low_bits(bits));
  if (name == "identity") return f2::identity(bits);
  throw InputError("--bpc: one of bit-reversal, transpose, shuffle, unshuffle, reverse, identity (got '" + name + "')");
}

}  // namespace

RunHandler add_bmmc_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& /*common*/) {
  struct Opts {
    std::string matrix_file, bpc_name, save_matrix;
    bool random_bpc = false, random_bmmc = false, direct = false;
  };
  auto o = std::make_shared<Opts>();
  run.add_option("--matrix", o->matrix_file,
                 "bmmc: BMMC file: n rows of n bits (character j of row i = a_ij), then the complement c");
  run.add_flag("--random-bpc", o->random_bpc, "bmmc: a random bit permutation and complement, from --seed");
  run.add_flag("--random-bmmc", o->random_bmmc, "bmmc: a random invertible matrix and complement, from --seed");
  run.add_option("--bpc", o->bpc_name, "bmmc: bit-reversal, transpose, shuffle, unshuffle, reverse, identity");
  run.add_option("--save-matrix", o->save_matrix, "bmmc: write the matrix that ran in the --matrix format");
  run.add_flag("--direct", o->direct, "parm-sort: no permutations; compare-exchanges read the cells in place");
  CLI::Option* kernel = option_once(run, "--kernel", "bmmc, parm-sort: naive, tile, tile-banks (default), tile-banks-iters");
  CLI::Option* iters = option_once(run, "--iters", "bmmc, parm-sort: log2 of the tiles per block of tile-banks-iters (default 3)");

  return [o, kernel, iters](const CommonRunOptions& c) -> std::optional<int> {
    if (c.algorithm != "bmmc" && c.algorithm != "parm-sort") return std::nullopt;
    c.machine.validate();
    const bmmc::BmmcOptions ko = kernel_options(kernel, iters);
    const Machine machine(c.machine.params);
    const EngineOptions eo{c.async ? Execution::Asynchronous : Execution::RoundSynchronous, !c.trace_file.empty()};

    if (c.algorithm == "parm-sort") {
      if (c.n == 0) throw InputError("-n: required, a power of two");
      const int bits = bits_of(c.n);
      bmmc::check_bmmc(c.machine.params, f2::identity(bits), ko);
      const auto r = bmmc::run_parm_sort(machine, bits, ko, o->direct, c.seed, eo);
      const std::string how = o->direct ? "direct" : bmmc::to_string(ko.kernel);
      if (c.json) {
        report::Json j = report::Json::object();
        j.set("algorithm", "parm-sort").set("n", static_cast<unsigned long long>(c.n)).set("permutations", how);
        j.set("machine", machine_json(c.machine.params)).set("seed", static_cast<unsigned long long>(c.seed));
        j.set("execution", c.async ? "asynchronous" : "round-synchronous");
        j.set("time_units", r.stats.time_units).set("compare_stages", r.compare_stages);
        j.set("permutation_stages", r.permutations).set("permutation_passes", r.passes).set("correct", r.sorted);
        print_json(j);
      } else {
        std::cout << "parm-sort of " << c.n << " keys (seed " << c.seed << "), permutations: " << how << ", HMM w = "
                  << c.machine.params.w << " l = " << c.machine.params.l << " L = " << c.machine.params.L
                  << " k = " << c.machine.params.k << ", " << (c.async ? "asynchronous" : "round-synchronous") << "\n"
                  << "compare-exchange columns: " << r.compare_stages << "\n"
                  << "BMMC permutations:        " << r.permutations << " (" << r.passes << " kernel passes)\n"
                  << "kernels launched:         " << r.stats.kernels.size() << "\n"
                  << "time units:               " << r.stats.time_units << "\n"
                  << "output sorted:            " << (r.sorted ? "yes" : "NO") << "\n";
      }
      return r.sorted ? kOk : kCheckFailed;
    }

    const int sources = !o->matrix_file.empty() + o->random_bpc + o->random_bmmc + !o->bpc_name.empty();
    if (sources != 1) throw InputError("bmmc: give exactly one of --matrix FILE, --random-bpc, --random-bmmc, --bpc NAME");
    f2::Bmmc f;
    std::string what;
    if (!o->matrix_file.empty()) {
      f = f2::read_bmmc_file(o->matrix_file);
      if (c.n != 0 && c.n != (std::uint64_t{1} << f.bits()))
        throw InputError("-n: the matrix has " + std::to_string(f.bits()) + " rows, so n must be 2^" +
                         std::to_string(f.bits()) + " (got " + std::to_string(c.n) + ")");
      bits_of(std::uint64_t{1} << f.bits());
      what = "matrix " + o->matrix_file;
    } else {
      if (c.n == 0) throw InputError("-n: required, a power of two");
      const int bits = bits_of(c.n);
      Rng rng(c.seed);
      if (o->random_bpc) f = f2::random_bpc(bits, rng), what = "random BPC (seed " + std::to_string(c.seed) + ")";
      else if (o->random_bmmc) f = f2::random_bmmc(bits, rng), what = "random BMMC (seed " + std::to_string(c.seed) + ")";
      else f = named_bpc(o->bpc_name, bits), what = o->bpc_name;
    }
    bmmc::check_bmmc(c.machine.params, f, ko);
    if (!o->save_matrix.empty()) {
      std::ofstream out(o->save_matrix);
      if (!out || !(out << f2::to_text(f))) throw InputError("--save-matrix: cannot write " + o->save_matrix);
    }

    const bmmc::BmmcRun r = bmmc::run_bmmc(machine, f, ko, eo);
    const std::int64_t n = std::int64_t{1} << f.bits();
    const MachineParams& m = c.machine.params;
    experiments::PermutationReport rep;
    rep.algorithm = std::string("bmmc ") + bmmc::to_string(ko.kernel);
    rep.permutation = what + (f.is_bpc() ? " [BPC]" : " [BMMC]");
    rep.n = static_cast<std::uint64_t>(n);
    rep.machine = m;
    rep.async = c.async;
    rep.distribution = r.distribution;
    rep.distribution_inverse = bmmc::bmmc_distribution(f2::inverse(f), m.w);
    rep.run.stats = r.stats;
    rep.run.predicted = r.predicted;
    rep.run.correct = r.correct;
    rep.run.trace = r.trace;
    const int t = __builtin_ctz(static_cast<unsigned>(m.w));
    rep.run.figures.push_back({"tiled for w", f2::is_tiled(f.a, t) ? 1.0 : 0.0, "(1 = one tiled pass suffices)"});
    rep.run.figures.push_back({"passes", static_cast<double>(r.passes.size()), "kernels"});
    for (std::size_t i = 0; i < r.passes.size(); ++i) {
      const auto& p = r.passes[i];
      const std::string tag = "pass " + std::to_string(i + 1) + " ";
      rep.run.figures.push_back({tag + "time units", static_cast<double>(p.time_units), ""});
      rep.run.figures.push_back({tag + "closed form", static_cast<double>(p.predicted), ""});
      rep.run.figures.push_back({tag + "overlap bits", static_cast<double>(p.overlap), ""});
      rep.run.figures.push_back({tag + "blocks", static_cast<double>(p.blocks), ""});
      rep.run.figures.push_back({tag + "threads per block", static_cast<double>(p.threads_per_block), ""});
      if (p.iters > 0) rep.run.figures.push_back({tag + "iteration bits", static_cast<double>(p.iters), ""});
    }
    const std::int64_t copy = closed_form::copy(n, m.w, m.L);
    rep.run.figures.push_back({"copy time units", static_cast<double>(copy), "(2n/w + 2L - 2)"});
    rep.run.figures.push_back({"copy / time", static_cast<double>(copy) / static_cast<double>(r.stats.time_units), ""});
    if (!c.trace_file.empty()) {
      std::ofstream out(c.trace_file);
      if (!out) throw InputError("--trace: cannot write " + c.trace_file);
      out << experiments::trace_csv(rep);
    }
    if (c.json) print_json(experiments::to_json(rep));
    else std::cout << experiments::to_text(rep);
    return r.correct ? kOk : kCheckFailed;
  };
}

}  // namespace mmsim::cli
