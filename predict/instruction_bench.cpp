#include "predict/instruction_bench.h"

#include <array>

#include "models/congestion.h"

namespace mmsim::predict {

const char* to_string(InstructionKind kind) {
  switch (kind) {
    case InstructionKind::AluChain:
      return "alu-chain";
    case InstructionKind::AluParallel:
      return "alu-parallel";
    case InstructionKind::SharedChase:
      return "shared-chase";
    case InstructionKind::SharedStream:
      return "shared-stream";
    case InstructionKind::Branchy:
      return "branchy";
  }
  return "?";
}

std::string InstructionBench::name() const {
  std::string s = to_string(kind);
  if (shared()) s += "-c" + std::to_string(congestion);
  return s;
}

std::vector<InstructionBench> instruction_benches() {
  std::vector<InstructionBench> out;
  for (const bool many : {false, true}) {
    for (const InstructionKind k : {InstructionKind::AluChain, InstructionKind::AluParallel})
      out.push_back({k, 1, 4096, many});
    for (const InstructionKind k :
         {InstructionKind::SharedChase, InstructionKind::SharedStream, InstructionKind::Branchy})
      for (const std::uint32_t c : {1u, 2u, 8u, 32u}) out.push_back({k, c, 4096, many});
  }
  return out;
}

std::uint32_t instruction_reference(const InstructionBench& b, std::uint32_t lane) {
  const std::uint32_t a = instruction_start_word(lane, b.congestion);  // s[j] = j: every load gives its address
  std::uint32_t x[4] = {lane, lane + 1, lane + 2, lane + 3}, y = lane, sum = 0;
  for (std::uint32_t i = 0; i < b.iterations; ++i) {
    switch (b.kind) {
      case InstructionKind::AluChain:
        x[0] = instruction_alu_step(x[0]);
        break;
      case InstructionKind::AluParallel:
        for (std::uint32_t& v : x) v = instruction_alu_step(v);
        break;
      case InstructionKind::SharedChase:
        break;
      case InstructionKind::SharedStream:
        sum += a;
        break;
      case InstructionKind::Branchy:
        y = instruction_branch_step(y, a, lane);
        break;
    }
  }
  switch (b.kind) {
    case InstructionKind::AluChain:
      return x[0];
    case InstructionKind::AluParallel:
      return x[0] ^ x[1] ^ x[2] ^ x[3];
    case InstructionKind::SharedChase:
      return a;
    case InstructionKind::SharedStream:
      return sum;
    case InstructionKind::Branchy:
      return y ^ a;
  }
  return 0;
}

SharedSteps simulated_shared_steps(const InstructionBench& b) {
  if (!b.shared()) return {};
  std::array<Address, 32> warp{};
  for (std::uint32_t lane = 0; lane < 32; ++lane) warp[lane] = instruction_start_word(lane, b.congestion);
  // Every iteration makes one warp access at these words (the chase stays on its word).
  const double steps = b.iterations;
  return {steps, steps * (congestion(warp, 32) - 1)};
}

std::string CopyBench::name() const { return "copy-r" + std::to_string(rows) + "-w" + std::to_string(warps_per_sm); }

std::vector<CopyBench> copy_benches() {
  std::vector<CopyBench> out;
  for (const std::uint32_t w : {1u, 4u, 16u, 32u}) out.push_back({6, w});
  for (const std::uint32_t w : {1u, 4u, 16u, 32u}) out.push_back({24, w});
  for (const std::uint32_t w : {1u, 2u, 8u}) out.push_back({96, w});
  for (const std::uint32_t w : {1u, 2u}) out.push_back({384, w});
  out.push_back({1000, 1});
  return out;
}

std::string TileBench::name() const {
  return "tile-k" + std::to_string(loads) + "-b" + std::to_string(blocks_per_sm) + "-m" + std::to_string(mib) +
         (in_place ? "-in-place" : "") + (threads == kTileThreads ? "" : "-t" + std::to_string(threads));
}

std::vector<TileBench> tile_benches() {
  std::vector<TileBench> out;
  for (const std::uint32_t threads : {kTileThreads, 1024u})
    for (const bool in_place : {false, true})
      for (const std::uint32_t mib : {4u, 12u, 128u, 256u})
        for (const std::uint32_t blocks : {1u, 2u, 4u, 8u})
          for (const std::uint32_t loads : {1u, 2u, 4u, 8u})
            if (blocks * threads <= 2048) out.push_back({loads, blocks, mib, in_place, threads});
  return out;
}

std::string StreamBench::name() const {
  return "stream-s" + std::to_string(steps) + "-n" + std::to_string(log2_n) +
         (shared_stride == 0 ? "" : "-shared" + std::to_string(shared_stride));
}

std::vector<StreamBench> stream_benches() {
  std::vector<StreamBench> out;
  for (const std::uint32_t log2_n : {22u, 25u})
    for (const std::uint32_t steps : {0u, 8u, 16u, 32u, 64u, 128u, 256u, 1024u}) out.push_back({steps, log2_n});
  for (const std::uint32_t stride : {1u, 8u})
    for (const std::uint32_t steps : {0u, 16u, 64u, 256u}) out.push_back({steps, 22, stride});
  return out;
}

}  // namespace mmsim::predict
