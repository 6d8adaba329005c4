// `mmsim sweep GRID -o OUT.csv`: every row of a grid (docs/sweep.md) through the registry, on every
// core and, under mpirun in a build with MPI, on every rank; resumable; one tidy CSV and its JSON.
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "cli/common.h"
#include "sim/progress.h"
#include "sweep/sweep_run.h"

namespace mmsim::cli {

namespace {

// A bar on one line of stderr, rewritten in place, at most a few times a second.
class ProgressBar {
 public:
  void operator()(std::uint64_t done, std::uint64_t total) {
    const auto now = std::chrono::steady_clock::now();
    if (shown_ && done < total && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    constexpr int kWidth = 40;
    const int filled = total ? static_cast<int>(kWidth * done / total) : kWidth;
    std::fprintf(stderr, "\r\033[K[%.*s%.*s] %llu/%llu rows", filled, "########################################",
                 kWidth - filled, "                                        ", static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total));
    std::fflush(stderr);
    shown_ = true;
  }
  void clear() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace

Runner add_sweep_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("sweep",
                                 "run the cross product of a grid of algorithms and parameters into one CSV "
                                 "(docs/sweep.md); resumable; split over MPI ranks under mpirun");
  struct Opts {
    std::string grid, out;
    bool json = false;
    ThreadsOption threads;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("grid", o->grid, "the grid: a JSON file naming algorithms and their parameters' values")->required();
  cmd->add_option("-o,--output", o->out, "the CSV to write (the JSON goes beside it, OUT.json)")->required();
  o->threads.add_to(*cmd, "rows run at once by each process");
  cmd->add_flag("--json", o->json, "print one JSON object");
  return [o] {
    sweep::SweepOptions options;
    options.grid = o->grid;
    options.csv = o->out;
    options.threads = o->threads.value();
    set_progress_listener({});  // rows run side by side: the bar below says how far the sweep is
    auto comm = sweep::make_sweep_comm();
    const bool root = comm->rank() == 0;
    ProgressBar bar;
    sweep::SweepProgress progress;
    if (root && isatty(STDERR_FILENO)) progress = [&bar](std::uint64_t done, std::uint64_t total) { bar(done, total); };
    sweep::SweepSummary s;
    try {
      s = sweep::run_sweep(options, *comm, progress);
    } catch (const InputError&) {
      bar.clear();
      if (root) throw;
      // Rank 0 says why, once, and gives the status: a rank that exited non-zero first would have
      // the launcher end rank 0 before it could say it.
      return kOk;
    } catch (...) {
      bar.clear();  // the error's line starts a line of its own, not the bar's
      throw;
    }
    bar.clear();
    if (!root) return kOk;
    if (o->json) {
      print_json(report::Json::object()
                     .set("rows", static_cast<unsigned long long>(s.rows))
                     .set("from_journal", static_cast<unsigned long long>(s.from_journal))
                     .set("run_now", static_cast<unsigned long long>(s.run_now))
                     .set("ranks", comm->size())
                     .set("incorrect", static_cast<unsigned long long>(s.incorrect))
                     .set("refused", static_cast<unsigned long long>(s.refused))
                     .set("csv", s.paths.csv)
                     .set("json", s.paths.json));
    } else {
      std::printf("sweep: %llu rows (%llu from the journal, %llu run now on %d process%s): wrote %s and %s\n",
                  static_cast<unsigned long long>(s.rows), static_cast<unsigned long long>(s.from_journal),
                  static_cast<unsigned long long>(s.run_now), comm->size(), comm->size() == 1 ? "" : "es",
                  s.paths.csv.c_str(), s.paths.json.c_str());
    }
    if (s.incorrect + s.refused == 0) return kOk;
    std::fprintf(stderr,
                 "mmsim: sweep: %llu rows failed their output check, %llu were refused by their algorithm "
                 "(their error column says why)\n",
                 static_cast<unsigned long long>(s.incorrect), static_cast<unsigned long long>(s.refused));
    return kCheckFailed;
  };
}

}  // namespace mmsim::cli
