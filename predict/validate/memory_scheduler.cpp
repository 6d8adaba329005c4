#include "predict/validate/memory_scheduler.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

namespace mmsim::predict {

namespace {

std::string gigabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

}  // namespace

void run_within_memory(const std::vector<MemoryJob>& jobs, unsigned threads, std::uint64_t max_bytes,
                       const std::function<void(std::size_t)>& run, std::ostream* progress) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return std::string(text);
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<bool> started(jobs.size(), false);
  std::vector<std::exception_ptr> errors(jobs.size());
  std::size_t running = 0, done = 0;
  std::uint64_t in_use = 0;
  const std::string of = " of " + std::to_string(jobs.size()) + ": ";

  // The first job not yet started that fits beside those running (or any, when none runs).
  const auto pick = [&]() -> std::size_t {
    for (std::size_t i = 0; i < jobs.size(); ++i)
      if (!started[i] && (running == 0 || in_use + jobs[i].bytes <= max_bytes)) return i;
    return jobs.size();
  };
  const auto work = [&] {
    std::unique_lock lock(mutex);
    for (;;) {
      std::size_t i = jobs.size();
      changed.wait(lock, [&] {
        i = pick();
        return i < jobs.size() || done + running == jobs.size();
      });
      if (i == jobs.size()) return;
      started[i] = true;
      ++running;
      in_use += jobs[i].bytes;
      if (progress)
        *progress << "validate: run " << i + 1 << of << jobs[i].label << " started at " << elapsed() << " ("
                  << gigabytes(jobs[i].bytes) << " estimated, " << gigabytes(in_use) << " of " << gigabytes(max_bytes)
                  << " in use)" << std::endl;
      lock.unlock();
      try {
        run(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
      lock.lock();
      --running;
      ++done;
      in_use -= jobs[i].bytes;
      if (progress)
        *progress << "validate: run " << i + 1 << of << jobs[i].label << (errors[i] ? " failed" : " done") << " at "
                  << elapsed() << std::endl;
      changed.notify_all();
    }
  };
  const unsigned t = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(jobs.size())));
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < t; ++k) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace mmsim::predict
