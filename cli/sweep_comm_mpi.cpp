// Builds with MPI (-DMMSIM_MPI=ON, or AUTO where find_package(MPI) finds it): under mpirun the
// ranks split a sweep's rows, each finished row goes to rank 0 as one message.
#include <mpi.h>

#include <cstdlib>

#include "sweep/sweep_comm.h"

namespace mmsim::sweep {

namespace {

constexpr int kRowTag = 1;

class MpiComm final : public SweepComm {
 public:
  MpiComm() {
    int provided = 0;
    // Worker threads run rows; only this thread calls MPI.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiComm() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void broadcast(std::vector<std::uint64_t>& words) override {
    unsigned long long count = words.size();
    MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    words.resize(count);
    if (count > 0) MPI_Bcast(words.data(), static_cast<int>(count), MPI_UINT64_T, 0, MPI_COMM_WORLD);
  }

  void send(const std::string& record) override {
    MPI_Send(record.data(), static_cast<int>(record.size()), MPI_CHAR, 0, kRowTag, MPI_COMM_WORLD);
  }

  std::optional<std::string> receive() override {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kRowTag, MPI_COMM_WORLD, &arrived, &status);
    if (!arrived) return std::nullopt;
    int bytes = 0;
    MPI_Get_count(&status, MPI_CHAR, &bytes);
    std::string record(static_cast<std::size_t>(bytes), '\0');
    MPI_Recv(record.data(), bytes, MPI_CHAR, status.MPI_SOURCE, kRowTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return record;
  }

  [[noreturn]] void abort(int status) override {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::exit(status);
  }

 private:
  int rank_ = 0, size_ = 1;
};

// Started by an MPI launcher: Open MPI, MPICH and PMIx-based launchers set one of these. Without
// one, MPI is never initialised, so a plain `mmsim sweep` needs no MPI runtime at all.
bool under_mpi_launcher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace

std::unique_ptr<SweepComm> make_sweep_comm() {
  if (!under_mpi_launcher()) return local_sweep_comm();
  return std::make_unique<MpiComm>();
}

}  // namespace mmsim::sweep
