// The communicator of builds without MPI: every sweep is one process.
#include <stdexcept>

#include "sweep/sweep_comm.h"

namespace mmsim::sweep {

namespace {

class LocalComm final : public SweepComm {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void broadcast(std::vector<std::uint64_t>&) override {}
  void send(const std::string&) override {}
  std::optional<std::string> receive() override { return std::nullopt; }
  // One process has no other ranks to stop: the error goes up to the command like any other,
  // which never ends the process itself (cli/mmsim_main.h).
  [[noreturn]] void abort(int status) override {
    throw std::logic_error("sweep: aborted with status " + std::to_string(status));
  }
};

}  // namespace

std::unique_ptr<SweepComm> local_sweep_comm() { return std::make_unique<LocalComm>(); }

}  // namespace mmsim::sweep
