// Builds without MPI (-DMMSIM_MPI=OFF, or no MPI found): a sweep is always one process.
#include "sweep/sweep_comm.h"

namespace mmsim::sweep {

std::unique_ptr<SweepComm> make_sweep_comm() { return local_sweep_comm(); }

}  // namespace mmsim::sweep
