// `mmsim gpu info | table NAME | reproduce | run | rap-profile | rap-ncu | bmmc | enumeration | sorting |
// calibrate | parm`: the CUDA backend's commands (bmmc, enumeration, sorting, calibrate and parm in files of their
// own).
#include <cstdio>
#include <filesystem>

#include "cli/gpu_common.h"
#include "experiments/gpu/kni_tables.h"
#include "experiments/gpu/rap_table.h"
#include "io/output_path.h"
#include "report/csv.h"

namespace mmsim::cli {

namespace {

std::vector<gpu::Elem> parse_types(const std::string& s) {
  std::vector<gpu::Elem> out;
  const auto names = report::split_csv_record(s);
  if (!names) throw InputError("--types: float, double or float,double (got " + quote(s) + ")");
  for (const std::string& t : *names) {
    if (t == "float")
      out.push_back(gpu::Elem::F32);
    else if (t == "double")
      out.push_back(gpu::Elem::F64);
    else
      throw InputError("--types: float, double or float,double (got " + quote(t) + ")");
  }
  if (out.empty()) throw InputError("--types: float, double or float,double");
  return out;
}

bool power_of_two(std::uint32_t x) { return x && !(x & (x - 1)); }

// True when the table's last column (correct) says yes on every row.
bool table_correct(const report::Table& t) {
  for (const auto& row : t.rows)
    if (!std::holds_alternative<std::string>(row.back()) || std::get<std::string>(row.back()) != "yes") return false;
  return true;
}

struct SweepArgs {
  // The defaults are the sweep's own (gpu::SweepOptions), so the two cannot drift apart.
  std::uint32_t min_side = gpu::SweepOptions{}.min_side, max_side = gpu::SweepOptions{}.max_side,
                max_sched = gpu::SweepOptions{}.max_scheduled_side;
  std::string types = "float,double";
  int runs = 20;
  unsigned threads = 8;
  std::uint64_t seed = 1;
  bool quiet = false;

  void add_to(CLI::App* cmd) {
    cmd->add_option("--min-side", min_side, "smallest sqrt(n), a power of two >= 32")->capture_default_str();
    cmd->add_option("--max-side", max_side, "largest sqrt(n), a power of two <= 16384")->capture_default_str();
    cmd->add_option("--max-scheduled-side", max_sched, "largest sqrt(n) for the scheduled permutation")
        ->capture_default_str();
    cmd->add_option("--types", types, "float, double or float,double")->capture_default_str();
    cmd->add_option("--runs", runs, "timed runs per kernel (>= 20)")->capture_default_str();
    cmd->add_option("--threads", threads, "host threads for the schedule and the checks")->capture_default_str();
    cmd->add_option("--seed", seed, "seed of the random permutation")->capture_default_str();
    cmd->add_flag("--quiet", quiet, "no progress lines on stderr");
  }
  gpu::SweepOptions options() const {
    if (!power_of_two(min_side) || min_side < 32) throw InputError("--min-side: a power of two >= 32");
    if (!power_of_two(max_side) || max_side > 16384 || max_side < min_side)
      throw InputError("--max-side: a power of two between --min-side and 16384");
    if (runs < 20) throw InputError("--runs: at least 20");
    if (threads < 1 || threads > 256) throw InputError("--threads: between 1 and 256");
    gpu::SweepOptions o;
    o.min_side = min_side;
    o.max_side = max_side;
    o.max_scheduled_side = max_sched;
    o.elems = parse_types(types);
    o.runs = runs;
    o.host_threads = threads;
    o.seed = seed;
    o.verbose = !quiet;
    return o;
  }
};

// rap-t3's options: the layouts drawn (as `mmsim table rap-t3 --trials`) and the timed transposes.
struct RapArgs {
  int trials = 2000;
  std::uint32_t reps = 1024;

  void add_to(CLI::App* cmd) {
    cmd->add_option("--trials", trials, "rap-t3: layouts drawn for ras and rap (the simulator's and the GPU's)")
        ->capture_default_str();
    cmd->add_option("--reps", reps, "rap-t3: timed transposes per block, even, 2 to 65536")->capture_default_str();
  }
  gpu::RapTableOptions options(const SweepArgs& sweep) const {
    if (trials < 1 || trials > 100000) throw InputError("--trials: between 1 and 100000");
    if (reps < 2 || reps > 65536 || reps % 2 != 0) throw InputError("--reps: an even number from 2 to 65536");
    gpu::RapTableOptions o;
    o.sim.trials = trials;
    o.sim.seed = sweep.seed;
    o.gpu.reps = reps;
    o.elems = parse_types(sweep.types);
    return o;
  }
};

}  // namespace

Runner add_gpu_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("gpu",
                                 "run the kernels on the CUDA GPU (tables, reproduce, info, bmmc, enumeration, "
                                 "sorting, calibrate, parm, instructions)");
  cmd->require_subcommand(1);
  auto* info = cmd->add_subcommand("info", "the GPU's name, SMs, memory, clocks and driver");
  auto* table = cmd->add_subcommand("table", "one GPU table: kasagi-t2, bench or rap-t3");
  auto* repro = cmd->add_subcommand("reproduce", "every GPU table, written to --out as .md and .csv");
  auto* run =
      cmd->add_subcommand("run", "one permutation: copy, conventional and scheduled, optionally from a schedule file");
  auto* profile =
      cmd->add_subcommand("rap-profile", "for Nsight Compute: each float 32 x 32 transpose kernel launched once");
  auto* ncu = cmd->add_subcommand("rap-ncu", "Nsight Compute's bank conflicts of rap-profile beside the simulator's");
  const GpuSubcommand bmmc = add_gpu_bmmc_command(*cmd);
  const GpuSubcommand enumeration = add_gpu_enumeration_command(*cmd);
  const GpuSubcommand sorting = add_gpu_sorting_command(*cmd);
  const GpuSubcommand calibrate = add_gpu_calibrate_command(*cmd);
  const GpuSubcommand parm = add_gpu_parm_command(*cmd);
  const GpuSubcommand accesses = add_gpu_accesses_command(*cmd);
  const GpuSubcommand instructions = add_gpu_instructions_command(*cmd);
  struct Opts {
    std::string name, format = "md", out = kDeviceOut;
    SweepArgs sweep;
    std::string perm = "random", perm_file, schedule, type = "float";
    std::uint64_t n = 1u << 20;
    int runs = 20;
    std::uint64_t seed = 1;
    RapArgs rap;
    std::string ncu_csv;
    bool slug = false;
  };
  auto o = std::make_shared<Opts>();
  info->add_flag("--slug", o->slug, "print only the device's short name, as results/gpu-<device> uses it");
  table->add_option("name", o->name, "kasagi-t2, bench or rap-t3")->required();
  o->rap.add_to(table);
  table->add_option("--format", o->format, "md, csv or json")->capture_default_str();
  o->sweep.add_to(table);
  repro->add_option("--out", o->out, "folder for the tables")->capture_default_str();
  o->sweep.add_to(repro);
  o->rap.add_to(repro);
  profile->add_option("--seed", o->seed, "seed of the ras and rap layouts")->capture_default_str();
  ncu->add_option("csv", o->ncu_csv, "Nsight Compute's --csv output of `mmsim gpu rap-profile`")->required();
  ncu->add_option("--seed", o->seed, "the seed rap-profile ran with")->capture_default_str();
  ncu->add_option("--out", o->out, "folder for rap-ncu.md (empty: print only; <device>: the GPU's short name)")
      ->capture_default_str();
  run->add_option("--perm", o->perm, "named permutation")->capture_default_str();
  run->add_option("--perm-file", o->perm_file, "permutation file (one P(i) per line)");
  run->add_option("-n", o->n, "number of elements (the scheduled kernels run where sqrt(n) is a power of two >= 32)")
      ->capture_default_str();
  run->add_option("--schedule", o->schedule, "schedule file written by `mmsim schedule` (w = 32)");
  run->add_option("--type", o->type, "float or double")->capture_default_str();
  run->add_option("--runs", o->runs, "timed runs (>= 20)")->capture_default_str();
  run->add_option("--seed", o->seed, "seed of the random permutation")->capture_default_str();
  return
      [o, info, table, repro, run, profile, ncu, bmmc, enumeration, sorting, calibrate, parm, accesses, instructions] {
        return guarded([&] {
          if (bmmc.app->parsed()) return bmmc.run();
          if (enumeration.app->parsed()) return enumeration.run();
          if (sorting.app->parsed()) return sorting.run();
          if (calibrate.app->parsed()) return calibrate.run();
          if (parm.app->parsed()) return parm.run();
          if (accesses.app->parsed()) return accesses.run();
          if (instructions.app->parsed()) return instructions.run();
          if (info->parsed()) {
            if (o->slug) {
              std::cout << predict::device_slug(gpu::device_info().name) << "\n";
              return kOk;
            }
            std::cout << report::to_markdown(gpu::device_table(gpu::device_info()));
            return kOk;
          }
          if (profile->parsed()) {
            const int wrong = gpu::rap_profile(o->seed);
            if (wrong) std::fprintf(stderr, "mmsim: gpu: %d transpose kernels gave a wrong output\n", wrong);
            return wrong ? kCheckFailed : kOk;
          }
          if (ncu->parsed()) {
            o->out = resolve_out(o->out);
            if (!o->out.empty()) check_output_folder("--out", o->out);  // empty: print only
            const report::Table t = gpu::rap_ncu_table(o->ncu_csv, o->seed);
            if (!o->out.empty()) {
              std::filesystem::create_directories(o->out);
              write_file(std::filesystem::path(o->out) / "rap-ncu.md", report::to_markdown(t));
            }
            std::cout << report::to_markdown(t);
            return kOk;
          }
          if (table->parsed()) {
            if (o->name != "kasagi-t2" && o->name != "bench" && o->name != "rap-t3")
              throw InputError("table: kasagi-t2, bench or rap-t3 (got " + quote(o->name) + ")");
            const report::Format f = parse_format_option(o->format);
            if (o->name == "rap-t3") {
              const report::Table t = gpu::rap_t3_gpu_table(o->rap.options(o->sweep));
              std::cout << report::render(t, f);
              return table_correct(t) ? kOk : kCheckFailed;
            }
            const gpu::SweepOptions so = o->sweep.options();
            const gpu::Sweep s = gpu::run_sweep(so);
            std::cout << report::render(o->name == "bench" ? gpu::bench_table(s) : gpu::kasagi_t2_table(s), f);
            return gpu::all_correct(s) ? kOk : kCheckFailed;
          }
          if (run->parsed()) {
            if (o->n == 0 || o->n > (1u << 28)) throw InputError("-n: between 1 and 2^28 on the GPU");
            if (o->runs < 20) throw InputError("--runs: at least 20");
            const auto types = parse_types(o->type);
            if (types.size() != 1) throw InputError("--type: float or double");
            gpu::RunOneOptions r;
            r.perm = o->perm_file.empty() ? named_permutation(o->perm, o->n, o->seed)
                                          : read_permutation_file(o->perm_file, o->n);
            r.elem = types[0];
            if (!o->schedule.empty()) r.schedule_file = o->schedule;
            r.runs = o->runs;
            const report::Table t = gpu::run_one_table(r);
            std::cout << report::to_markdown(t);
            for (const auto& row : t.rows)
              if (std::get<std::string>(row.back()) != "yes") return kCheckFailed;
            return kOk;
          }
          (void)repro;
          const gpu::SweepOptions so = o->sweep.options();
          o->out = resolve_out(o->out);
          check_output_folder("--out", o->out);
          std::filesystem::create_directories(o->out);
          const gpu::DeviceInfo d = gpu::device_info();
          write_file(std::filesystem::path(o->out) / "device.md", report::to_markdown(gpu::device_table(d)));
          const std::filesystem::path dir(o->out);
          // rap-t3 first: it is short, and a sweep stopped by a time limit then still leaves it.
          const gpu::RapTableOptions ro = o->rap.options(o->sweep);
          const report::Table rap = gpu::rap_t3_gpu_table(ro);
          write_file(dir / "rap-t3.md", report::to_markdown(rap));
          write_file(dir / "rap-t3.csv", report::to_csv(rap));
          if (so.verbose) std::fprintf(stderr, "gpu: rap-t3 written\n");
          const auto write_all = [&dir](const gpu::Sweep& sw) {
            const report::Table t2 = gpu::kasagi_t2_table(sw), b = gpu::bench_table(sw);
            write_file(dir / "kasagi-t2.md", report::to_markdown(t2));
            write_file(dir / "kasagi-t2.csv", report::to_csv(t2));
            write_file(dir / "bench.md", report::to_markdown(b));
            write_file(dir / "bench.csv", report::to_csv(b));
          };
          const gpu::Sweep s = gpu::run_sweep(so, write_all);
          write_all(s);
          std::cout << report::to_markdown(gpu::kasagi_t2_table(s));
          if (!gpu::all_correct(s)) {
            std::fprintf(stderr, "mmsim: gpu: some kernel's output did not match the CPU reference (see bench.md)\n");
            return kCheckFailed;
          }
          if (!table_correct(rap)) {
            std::fprintf(stderr, "mmsim: gpu: some transpose's output did not match (see rap-t3.md)\n");
            return kCheckFailed;
          }
          return kOk;
        });
      };
}

}  // namespace mmsim::cli
