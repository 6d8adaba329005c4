// How the processes of one sweep talk: this process alone, or the ranks of an MPI job (built with
// -DMMSIM_MPI=ON and started by mpirun). The sweep itself knows only this interface; which one a
// build has is chosen by CMake (sweep_comm_local.cpp or sweep_comm_mpi.cpp), not by #ifdef.
//
// Contract: rank 0 reads the journal and writes every output; the other ranks run their share of
// the rows and send each finished row to rank 0. Only the thread that made the communicator calls
// it (MPI_THREAD_FUNNELED).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mmsim::sweep {

class SweepComm {
 public:
  virtual ~SweepComm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Rank 0's `words` to every rank (the others' `words` are replaced).
  virtual void broadcast(std::vector<std::uint64_t>& words) = 0;
  /// Rank > 0: one finished row to rank 0.
  virtual void send(const std::string& record) = 0;
  /// Rank 0: a row another rank finished, if one has arrived; never blocks.
  virtual std::optional<std::string> receive() = 0;
  /// Ends every rank at once (an internal error on one rank would leave the others waiting).
  [[noreturn]] virtual void abort(int status) = 0;
};

/// This process alone.
std::unique_ptr<SweepComm> local_sweep_comm();
/// The ranks of the MPI job this process belongs to, or this process alone when the build has no
/// MPI or the process was not started by an MPI launcher.
std::unique_ptr<SweepComm> make_sweep_comm();

}  // namespace mmsim::sweep
