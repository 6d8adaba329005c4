// An algorithm as the engine runs it: SIMT kernels made of per-thread steps over named arrays.
//
// A kernel is a grid of blocks of threads; each step is either a memory instruction (every thread
// maps its identity, and its registers, to one address or to none) or local computation on
// registers, which costs nothing (docs/model.md "Rounds and barriers"). The engine alone turns a
// program into time; nothing here knows about time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "sim/types.h"

namespace mmsim {

/// The identity and registers of one thread while it executes a step.
class Thread {
 public:
  Thread(ThreadId id, std::uint64_t block, std::uint32_t local, Word* const* regs)
      : id_(id), block_(block), local_(local), regs_(regs) {}

  ThreadId id() const { return id_; }             ///< index over the whole launch
  std::uint64_t block() const { return block_; }  ///< block index
  std::uint32_t local() const { return local_; }  ///< index inside the block
  Word reg(int r) const { return regs_[r][id_]; }
  void set(int r, Word v) const { regs_[r][id_] = v; }

 private:
  ThreadId id_;
  std::uint64_t block_;
  std::uint32_t local_;
  Word* const* regs_;
};

/// A named array. Global arrays live once in the global memory; a shared array has `size` cells in
/// the shared memory of every block (CUDA's __shared__), addressed from 0 in each block.
struct ArrayDecl {
  std::string name;
  Space space = Space::Global;
  std::uint64_t size = 0;
  /// Bytes per cell, seen only by a byte-addressed global memory (models/gpu_memory): an index
  /// array the GPU stores as uint32 or uint16 says 4 or 2. 0: the data element size the model was
  /// given (float or double). The papers' models ignore it: their cell is the unit.
  std::uint32_t element_bytes = 0;
};

using ArrayId = int;
using AddressFn = std::function<Address(const Thread&)>;
using ComputeFn = std::function<void(const Thread&)>;

/// Address functions the engine recognises and evaluates a warp at a time, without a call per
/// thread (the engine's hot path; same addresses as calling them thread by thread): give one as an
/// Access's address when the access is of that shape.
/// The thread's index over the launch: a coalesced access of one cell per thread.
struct ThreadIndexAddress {
  Address operator()(const Thread& t) const { return t.id(); }
};
/// The value of register `reg`: a gather or scatter through an index loaded before.
struct RegisterAddress {
  int reg = 0;
  Address operator()(const Thread& t) const { return t.reg(reg); }
};

/// One memory instruction: a read copies array[address] into register `reg`, a write copies
/// register `reg` into array[address]. With `vector` = v > 1 a thread moves the v cells address ..
/// address + v - 1 (address a multiple of v, as a GPU's float2 or float4) between registers reg ..
/// reg + v - 1 and memory. An atomic (op Atomic) updates array[address] with `atomic`, thread after
/// thread, lowest first: its operand is register `reg` (CompareAndSwap: the compared value, the new
/// one in reg + 1; Increment: none), and the old value goes to register `result` unless it is -1.
/// An address may come from a register an earlier step loaded (Thread::reg): a gather through an
/// index array, a histogram's key.
struct Access {
  std::string name;
  Op op = Op::Read;
  ArrayId array = 0;
  int reg = 0;
  AddressFn address;
  std::uint32_t vector = 1;
  AtomicOp atomic = AtomicOp::None;
  int result = -1;
};

/// Local computation on registers: free in time (docs/model.md "Rounds and barriers").
struct Compute {
  ComputeFn fn;
};

/// __syncthreads(): in asynchronous execution a warp waits here until every warp of its block has
/// arrived. Round-synchronous execution has a barrier after every instruction anyway.
struct BlockBarrier {};

using Step = std::variant<Access, Compute, BlockBarrier>;

struct Kernel {
  std::string name;
  std::uint64_t blocks = 1;
  std::uint32_t threads_per_block = 0;  ///< a multiple of the machine's width w
  int registers = 1;
  std::vector<Step> steps;
  /// Asynchronous execution only: at most this many blocks per DMM at a time, further blocks issued
  /// in index order to the DMM that frees one, as a GPU's block scheduler does. 0: every block is
  /// resident from the start (the papers' HMM; round-synchronous execution always runs so).
  std::uint32_t resident_blocks_per_dmm = 0;

  std::uint64_t threads() const { return blocks * threads_per_block; }
};

/// Arrays and the kernels that run over them, in order, with a grid barrier between kernels.
struct Program {
  std::vector<ArrayDecl> arrays;
  std::vector<Kernel> kernels;

  ArrayId add_array(std::string name, Space space, std::uint64_t size) {
    arrays.push_back({std::move(name), space, size});
    return static_cast<ArrayId>(arrays.size() - 1);
  }
};

}  // namespace mmsim
