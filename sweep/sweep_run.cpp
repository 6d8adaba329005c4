#include "sweep/sweep_run.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>

#include "algorithms/params.h"
#include "io/input_error.h"
#include "io/output_file.h"
#include "io/output_path.h"
#include "io/quote.h"
#include "report/csv.h"
#include "sim/workers.h"

namespace mmsim::sweep {

namespace {

// A finished row as it travels to rank 0: its index in the grid, a line break, its CSV line.
std::string encode(std::uint64_t row, const std::vector<std::string>& cells) {
  return std::to_string(row) + "\n" + report::csv_line(cells);
}

void write_file(const std::string& path, const std::string& text, Links links = Links::Follow) {
  write_file_atomically(path, text, "sweep", links);
}

// Writes all of `text` to `fd` (a journal line); false when a write fails.
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

SweepSummary run_sweep(const SweepOptions& options, SweepComm& comm, const SweepProgress& progress) {
  // Every rank reads the grid itself (the same file gives the same rows), so no grid travels.
  const SweepGrid grid = load_grid(options.grid);
  SweepSummary summary;
  summary.rows = grid.rows.size();
  summary.paths = sweep_paths(options.csv);
  const bool root = comm.rank() == 0;

  // Rank 0 checks the outputs and reads the journal, then tells every rank which rows are left
  // (words[0] = 0) or that the sweep is refused (words[0] = 1).
  std::map<std::string, std::vector<std::string>> done;
  std::vector<std::uint64_t> words;
  std::string refusal;
  if (root) {
    try {
      check_output_file("-o", summary.paths.csv);
      // The CSV is replaced by renaming, with two files of the same name beside it: a device or a
      // FIFO (-o /dev/null) would take the CSV and leave /dev/null.json behind.
      struct stat st {};
      if (::stat(summary.paths.csv.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw InputError("-o: " + quote(summary.paths.csv) +
                         " is not a regular file (a sweep writes its CSV, and its JSON and journal beside it)");
      check_output_beside("-o (the JSON beside it)", summary.paths.json);
      check_output_beside("-o (the journal beside it)", summary.paths.journal);
      // `-o grid.csv` puts the JSON at grid.json: never write over the grid being read.
      std::error_code ec;
      for (const std::string* p : {&summary.paths.csv, &summary.paths.json, &summary.paths.journal})
        if (std::filesystem::equivalent(options.grid, *p, ec))
          throw InputError("-o: " + quote(*p) + " is the grid itself (choose another output name)");
      done = read_journal(summary.paths.journal, grid);
    } catch (const InputError& e) {
      refusal = e.what();
    }
    words.push_back(refusal.empty() ? 0 : 1);
    if (refusal.empty())
      for (std::uint64_t i = 0; i < grid.rows.size(); ++i)
        if (!done.count(grid.rows[i].key)) words.push_back(i);
  }
  comm.broadcast(words);
  if (words.at(0) != 0) throw InputError(root ? refusal : "sweep: refused by rank 0");
  const std::vector<std::uint64_t> pending(words.begin() + 1, words.end());
  summary.from_journal = grid.rows.size() - pending.size();
  summary.run_now = pending.size();
  std::vector<std::uint64_t> mine;  // every size-th pending row, from this rank's own
  for (std::size_t j = static_cast<std::size_t>(comm.rank()); j < pending.size();
       j += static_cast<std::size_t>(comm.size()))
    mine.push_back(pending[j]);

  std::vector<std::vector<std::string>> cells(grid.rows.size());
  int journal_fd = -1;
  struct CloseJournal {
    int& fd;
    ~CloseJournal() {
      if (fd >= 0) ::close(fd);
    }
  } close_journal{journal_fd};
  std::uint64_t finished_rows = 0;
  if (root) {
    for (std::uint64_t i = 0; i < grid.rows.size(); ++i) {
      auto it = done.find(grid.rows[i].key);
      if (it != done.end()) cells[i] = std::move(it->second), ++finished_rows;
    }
    // The journal starts again as the current grid's header and the rows kept from it (a grid
    // changed since may have other columns), written aside and renamed, so it is never lost.
    {
      std::vector<std::string> header;
      for (const auto& c : grid.columns) header.push_back(c.name);
      std::string text = report::csv_line(header) + "\n";
      for (const auto& row : cells)
        if (!row.empty()) text += report::csv_line(row) + "\n";
      write_file(summary.paths.journal, text, Links::Replace);
    }
    // Appended to without following a link: one planted since the line above fails the open.
    journal_fd = ::open(summary.paths.journal.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    if (journal_fd < 0) throw WriteError("sweep: cannot write the journal " + quote(summary.paths.journal));
    if (progress) progress(finished_rows, grid.rows.size());
  }
  const auto record = [&](std::uint64_t row, std::vector<std::string> row_cells) {
    // One line, written whole, then kept.
    if (!write_all(journal_fd, report::csv_line(row_cells) + "\n"))
      throw WriteError("sweep: cannot write the journal " + quote(summary.paths.journal));
    cells[row] = std::move(row_cells);
    ++finished_rows;
  };

  // Worker threads take this rank's rows in order; this thread hands their results on.
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::pair<std::uint64_t, std::vector<std::string>>> results;
  std::exception_ptr failure;
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    try {
      for (std::size_t i; (i = next++) < mine.size();) {
        auto row_cells = run_row(grid, grid.rows[mine[i]]);
        const std::lock_guard lock(mutex);
        results.emplace_back(mine[i], std::move(row_cells));
        ready.notify_one();
      }
    } catch (...) {
      const std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      next = mine.size();
      ready.notify_one();
    }
  };
  std::vector<std::jthread> workers;
  const std::size_t threads = std::min<std::size_t>(resolve_threads(options.threads), mine.size());
  for (std::size_t t = 0; t < threads; ++t) workers.emplace_back(work);

  std::size_t local_left = mine.size();
  std::uint64_t remote_left = root ? pending.size() - mine.size() : 0;
  // With other ranks, rank 0 also looks for their rows every few milliseconds.
  const auto wait = comm.size() > 1 ? std::chrono::milliseconds(5) : std::chrono::milliseconds(500);
  while (local_left > 0 || remote_left > 0) {
    std::deque<std::pair<std::uint64_t, std::vector<std::string>>> batch;
    std::exception_ptr failed;
    {
      std::unique_lock lock(mutex);
      ready.wait_for(lock, wait, [&] { return !results.empty() || failure; });
      batch.swap(results);
      failed = failure;
    }
    if (failed) {
      for (auto& t : workers) t.join();
      if (comm.size() > 1) {
        try {
          std::rethrow_exception(failed);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "mmsim: internal error on rank %d: %s\n", comm.rank(), e.what());
        }
        comm.abort(3);  // the other ranks would wait for this one's rows forever
      }
      std::rethrow_exception(failed);
    }
    for (auto& [row, row_cells] : batch) {
      --local_left;
      if (root)
        record(row, std::move(row_cells));
      else
        comm.send(encode(row, row_cells));
    }
    if (root) {
      while (auto message = comm.receive()) {
        const std::size_t cut = message->find('\n');
        const std::uint64_t row = std::stoull(message->substr(0, cut));
        auto row_cells = report::split_csv_record(std::string_view(*message).substr(cut + 1));
        if (!row_cells || row >= cells.size() || row_cells->size() != grid.columns.size())
          throw std::logic_error("sweep: a malformed row came from another rank");
        record(row, std::move(*row_cells));
        --remote_left;
      }
      if (progress && (!batch.empty() || remote_left > 0)) progress(finished_rows, grid.rows.size());
    }
  }
  for (auto& t : workers) t.join();
  if (!root) return summary;

  if (::close(journal_fd) != 0 && errno != EINTR)
    throw WriteError("sweep: cannot write the journal " + quote(summary.paths.journal));
  journal_fd = -1;
  std::size_t correct_column = 0, error_column = 0;
  for (std::size_t i = 0; i < grid.columns.size(); ++i) {
    if (grid.columns[i].name == "correct") correct_column = i;
    if (grid.columns[i].name == "error") error_column = i;
  }
  for (const auto& row : cells) {
    summary.incorrect += row[correct_column] == "false" && row[error_column].empty();
    summary.refused += !row[error_column].empty();
  }
  write_file(summary.paths.csv, sweep_csv(grid, cells));
  write_file(summary.paths.json, sweep_json(grid, cells), Links::Replace);
  std::remove(summary.paths.journal.c_str());  // every row is in the outputs now
  return summary;
}

}  // namespace mmsim::sweep
