// A small pool of host threads that runs numbered tasks: the engine's round-synchronous rounds and
// the offline schedule builder spread their independent work over it.
//
// Contract: a caller that wants results independent of the number of threads writes each task's
// results to a place of its own and merges them in task order afterwards; which thread ran which
// task, and when, must not matter. Tasks must not call run() of the pool that runs them.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mmsim {

/// Every core this process may use: those of its CPU affinity (as `nproc` counts them), else
/// std::thread::hardware_concurrency(); at least 1.
unsigned hardware_threads();
/// `requested`, or every core when it is 0.
unsigned resolve_threads(unsigned requested);

class WorkerPool {
 public:
  /// `threads` >= 1 workers in all: the caller of run() is one of them, threads - 1 are started.
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(helpers_.size()) + 1; }

  /// Runs task(0) .. task(tasks - 1), each once, claimed in increasing order by whichever worker is
  /// free, and returns when all have finished. When tasks throw, every task still runs and the
  /// exception of the lowest-numbered task that threw is rethrown: the error a loop in task order
  /// would have met first.
  void run(std::size_t tasks, const std::function<void(std::size_t)>& task);
  /// The same, telling each task which worker runs it (0 .. threads() - 1; the caller is 0), for
  /// scratch kept per worker.
  void run(std::size_t tasks, const std::function<void(std::size_t task, unsigned worker)>& task);

 private:
  void helper_loop(unsigned worker);
  void work(unsigned worker);

  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  const std::function<void(std::size_t, unsigned)>* task_ = nullptr;
  std::size_t tasks_ = 0;
  std::size_t next_ = 0;        // next task to claim (under mutex_: claims are rare and coarse)
  std::size_t generation_ = 0;  // bumped by every run(), so that a helper joins each run once
  unsigned busy_ = 0;           // helpers that have not finished the current run
  bool stopping_ = false;
  std::size_t failed_task_ = 0;
  std::exception_ptr error_;
};

}  // namespace mmsim
