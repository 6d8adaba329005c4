#include "kernels/trace_file.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <queue>
#include <unordered_set>

#include "io/input_error.h"
#include "io/input_file.h"
#include "io/quote.h"

namespace mmsim::kernels {

namespace {

constexpr char kMagic[8] = {'M', 'M', 'S', 'I', 'M', 'T', 'R', 'C'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kNoIndex = 0xFFFFFFFFu;
constexpr std::size_t kHeadBytes = 32, kAffineBytes = 16, kTableBytes = 128;
constexpr std::uint64_t kMaxSms = 4096;

// The trace's bytes, read front to back; every read is bounded by what is left.
class Reader {
 public:
  Reader(std::string_view bytes, const std::string& source) : bytes_(bytes), source_(source) {}

  [[noreturn]] void fail(const std::string& where, const std::string& rule) const {
    const std::string q = quote(source_, 60);
    throw InputError(q.substr(1, q.size() - 2) + ": " + where + ": " + rule);
  }
  std::size_t left() const { return bytes_.size() - at_; }
  std::size_t offset() const { return at_; }
  void need(std::size_t n, const std::string& where) const {
    if (left() < n)
      fail(where,
           "the file ends after " + std::to_string(bytes_.size()) + " bytes, " + std::to_string(n - left()) + " short");
  }
  std::uint64_t u(int bytes, const std::string& where) {
    need(static_cast<std::size_t>(bytes), where);
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t{static_cast<unsigned char>(bytes_[at_ + i])} << (8 * i);
    at_ += static_cast<std::size_t>(bytes);
    return v;
  }
  std::string text(const std::string& where, bool may_be_empty) {
    const std::uint64_t n = u(2, where);
    if (n > 255) fail(where, "a name of " + std::to_string(n) + " bytes; at most 255");
    if (n == 0 && !may_be_empty) fail(where, "an empty name");
    need(n, where);
    std::string s(bytes_.substr(at_, n));
    at_ += n;
    for (char c : s)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) fail(where, "a control byte in a name");
    return s;
  }

 private:
  std::string_view bytes_;
  const std::string& source_;
  std::size_t at_ = 0;
};

TraceOp op_of(std::uint64_t v) { return static_cast<TraceOp>(v); }

AtomicOp atomic_of(TraceOp op) {
  switch (op) {
    case TraceOp::AtomicAdd:
      return AtomicOp::Add;
    case TraceOp::AtomicMin:
      return AtomicOp::Min;
    case TraceOp::AtomicMax:
      return AtomicOp::Max;
    case TraceOp::AtomicExch:
      return AtomicOp::Exchange;
    case TraceOp::AtomicCas:
      return AtomicOp::CompareAndSwap;
    case TraceOp::AtomicInc:
      return AtomicOp::Increment;
    default:
      return AtomicOp::None;
  }
}

void read_record(Reader& in, Trace& t, std::uint64_t r) {
  const std::string where = "record " + std::to_string(r);
  in.need(kHeadBytes, where);
  TraceRecord rec;
  const std::uint64_t file = in.u(8, where), line = in.u(4, where), block = in.u(4, where), mask = in.u(4, where);
  const std::uint64_t warp = in.u(2, where), op = in.u(1, where), array = in.u(1, where), kernel = in.u(1, where);
  const std::uint64_t form = in.u(1, where), size = in.u(1, where), reserved0 = in.u(1, where);
  const std::uint64_t reserved1 = in.u(4, where);
  if (file >= t.files.size())
    in.fail(where,
            "file " + std::to_string(file) + " is past the trace's " + std::to_string(t.files.size()) + " files");
  if (line == 0) in.fail(where, "line 0; lines count from 1");
  if (kernel >= t.kernels.size())
    in.fail(where, "kernel " + std::to_string(kernel) + " is past the trace's " + std::to_string(t.kernels.size()) +
                       " kernels");
  const TraceKernel& k = t.kernels[kernel];
  if (block >= k.blocks)
    in.fail(where, "block " + std::to_string(block) + " is past kernel " + quote(k.name, 32) + "'s " +
                       std::to_string(k.blocks) + " blocks");
  if (warp >= k.threads_per_block / 32)
    in.fail(where, "warp " + std::to_string(warp) + " is past the " + std::to_string(k.threads_per_block / 32) +
                       " warps of a block of kernel " + quote(k.name, 32));
  if (mask == 0) in.fail(where, "no active lane (mask 0)");
  if (op > static_cast<std::uint64_t>(TraceOp::Barrier)) in.fail(where, "op " + std::to_string(op) + " is not 0..8");
  if (reserved0 != 0 || reserved1 != 0) in.fail(where, "its reserved bytes are not zero");
  rec.file = static_cast<std::uint32_t>(file);
  rec.line = static_cast<std::uint32_t>(line);
  rec.block = static_cast<std::uint32_t>(block);
  rec.mask = static_cast<std::uint32_t>(mask);
  rec.warp = static_cast<std::uint16_t>(warp);
  rec.op = op_of(op);
  rec.kernel = static_cast<std::uint8_t>(kernel);
  if (rec.op == TraceOp::Barrier) {
    if (form != 0 || array != 0 || size != 0) in.fail(where, "a barrier has form 0, array 0 and size 0");
    t.records.push_back(rec);
    return;
  }
  if (array >= t.arrays.size())
    in.fail(where,
            "array " + std::to_string(array) + " is past the trace's " + std::to_string(t.arrays.size()) + " arrays");
  const TraceArray& a = t.arrays[array];
  if (size != a.element_bytes)
    in.fail(where, "moves " + std::to_string(size) + " bytes a lane; " + quote(a.name, 32) + "'s elements are " +
                       std::to_string(a.element_bytes) + " bytes");
  rec.array = static_cast<std::uint8_t>(array);
  rec.size = static_cast<std::uint8_t>(size);
  const auto outside = [&](unsigned lane, const std::string& index) {
    in.fail(where, "lane " + std::to_string(lane) + " addresses " + index + " outside " + quote(a.name, 32) + "[" +
                       std::to_string(a.elements) + "]");
  };
  if (form == 1) {
    in.need(kAffineBytes, where);
    rec.affine = true;
    rec.base = static_cast<std::int64_t>(in.u(8, where));
    rec.stride = static_cast<std::int64_t>(in.u(8, where));
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!(rec.mask >> lane & 1u)) continue;
      std::int64_t step = 0, index = 0;
      if (__builtin_mul_overflow(rec.stride, static_cast<std::int64_t>(lane), &step) ||
          __builtin_add_overflow(rec.base, step, &index))
        outside(lane, "past 2^63");
      if (index < 0 || static_cast<std::uint64_t>(index) >= a.elements) outside(lane, std::to_string(index));
    }
  } else if (form == 2) {
    in.need(kTableBytes, where);
    rec.affine = false;
    rec.table = t.tables.size();
    for (unsigned lane = 0; lane < 32; ++lane) {
      const auto index = static_cast<std::uint32_t>(in.u(4, where));
      if (!(rec.mask >> lane & 1u)) {
        if (index != kNoIndex) in.fail(where, "lane " + std::to_string(lane) + " is not in the mask but has an index");
      } else if (index >= a.elements) {
        outside(lane, index == kNoIndex ? std::string("none (an index outside [0, 2^32 - 1))") : std::to_string(index));
      }
      t.tables.push_back(index);
    }
  } else {
    in.fail(where, "form " + std::to_string(form) + " is not 1 (base and stride) or 2 (32 indices)");
  }
  t.records.push_back(rec);
}

}  // namespace

Trace parse_trace(std::string_view bytes, const std::string& source) {
  Reader in(bytes, source);
  Trace t;
  t.source = source;
  t.file_bytes = bytes.size();
  if (bytes.size() > kMaxTraceBytes) in.fail("header", "more than 2^30 bytes");
  in.need(8, "header");
  if (std::memcmp(bytes.data(), kMagic, 8) != 0) in.fail("header", "not an mmsim trace (it starts without MMSIMTRC)");
  in.u(8, "header");
  const std::uint64_t version = in.u(4, "header");
  if (version != kVersion)
    in.fail("header", "version " + std::to_string(version) + "; this mmsim reads version " + std::to_string(kVersion));
  const std::uint64_t warp_size = in.u(4, "header"), sms = in.u(4, "header");
  const std::uint64_t files = in.u(4, "header"), arrays = in.u(4, "header"), kernels = in.u(4, "header");
  const std::uint64_t records = in.u(8, "header"), dropped = in.u(8, "header"), record_bytes = in.u(8, "header");
  if (warp_size != 32) in.fail("header", "warp size " + std::to_string(warp_size) + "; traces have warps of 32");
  if (sms == 0 || sms > kMaxSms) in.fail("header", "SM count must be in [1, 4096]");
  if (files > 256) in.fail("header", "more than 256 files");
  if (arrays == 0 || arrays > 255) in.fail("header", "array count must be in [1, 255]");
  if (kernels == 0 || kernels > 255) in.fail("header", "kernel count must be in [1, 255]");
  if (records > kMaxTraceRecords) in.fail("header", "more than 2^25 records");
  if (dropped != 0)
    in.fail("header", "the traced run dropped " + std::to_string(dropped) +
                          " records (its buffer was full): give TraceRecorder a larger buffer and trace again");
  t.warp_size = static_cast<std::uint32_t>(warp_size);
  t.sm_count = static_cast<std::uint32_t>(sms);
  t.device = in.text("header (device)", true);
  for (std::uint64_t f = 0; f < files; ++f) t.files.push_back(in.text("file " + std::to_string(f), false));
  for (std::uint64_t a = 0; a < arrays; ++a) {
    const std::string where = "array " + std::to_string(a);
    TraceArray x;
    x.name = in.text(where, false);
    const std::uint64_t space = in.u(1, where), element = in.u(1, where), reserved = in.u(2, where);
    x.elements = in.u(8, where);
    if (space > 1) in.fail(where, "space must be 0 (global) or 1 (shared)");
    if (element != 1 && element != 2 && element != 4 && element != 8 && element != 16)
      in.fail(where, "element size must be 1, 2, 4, 8 or 16 bytes");
    if (reserved != 0) in.fail(where, "its reserved bytes are not zero");
    if (x.elements == 0 || x.elements > kMaxArrayElements) in.fail(where, "size must be in [1, 2^28] elements");
    x.space = space == 0 ? Space::Global : Space::Shared;
    x.element_bytes = static_cast<std::uint32_t>(element);
    t.arrays.push_back(std::move(x));
  }
  for (std::uint64_t k = 0; k < kernels; ++k) {
    const std::string where = "kernel " + std::to_string(k);
    TraceKernel x;
    x.name = in.text(where, false);
    const std::uint64_t blocks = in.u(4, where), tpb = in.u(4, where);
    if (tpb == 0 || tpb > 1024 || tpb % 32 != 0)
      in.fail(where, "threads per block must be a multiple of 32 in [32, 1024]");
    if (blocks == 0 || blocks * tpb > kMaxKernelThreads) in.fail(where, "blocks x threads must be in [1, 2^28]");
    x.blocks = static_cast<std::uint32_t>(blocks);
    x.threads_per_block = static_cast<std::uint32_t>(tpb);
    t.kernels.push_back(std::move(x));
  }
  if (record_bytes != in.left())
    in.fail("header", "says " + std::to_string(record_bytes) + " bytes of records; " + std::to_string(in.left()) +
                          " follow the tables");
  for (std::uint64_t r = 0; in.left() > 0; ++r) {
    if (r >= records)
      in.fail("record " + std::to_string(r), "past the " + std::to_string(records) + " records the header counts");
    read_record(in, t, r);
  }
  if (t.records.size() != records)
    in.fail("header",
            "counts " + std::to_string(records) + " records; the file holds " + std::to_string(t.records.size()));
  return t;
}

Trace read_trace_file(const std::string& option, const std::string& path) {
  InputFile file(option, path, kMaxTraceBytes, "a trace allows");
  return parse_trace(file.read_all(), path);
}

MachineParams trace_machine(const Trace& trace) {
  MachineParams m;
  m.model = ModelKind::Hmm;
  m.w = static_cast<int>(trace.warp_size);
  m.k = static_cast<int>(trace.sm_count);
  m.extensions.widths = true;
  m.extensions.atomics = true;
  return m;
}

std::string trace_line_name(const Trace& trace, std::uint32_t file, std::uint32_t line) {
  const std::string& path = trace.files.at(file);
  const std::size_t slash = path.find_last_of("/\\");
  return (slash == std::string::npos ? path : path.substr(slash + 1)) + ":" + std::to_string(line);
}

ProgramSpec trace_program(const Trace& trace, const MachineParams& machine) {
  const auto fail = [&trace](const std::string& where, const std::string& rule) {
    const std::string q = quote(trace.source, 60);
    throw InputError(q.substr(1, q.size() - 2) + ": " + where + ": " + rule);
  };
  if (machine.w != static_cast<int>(trace.warp_size))
    fail("machine", "w = " + std::to_string(machine.w) + ", but the trace's warps have " +
                        std::to_string(trace.warp_size) + " threads");
  ProgramSpec p;
  p.source = trace.source;
  p.machine = machine;
  for (const TraceArray& a : trace.arrays) {
    ArraySpec x;
    x.name = a.name;
    x.space = a.space;
    x.size = a.elements;
    x.element_bytes = a.element_bytes;
    p.arrays.push_back(std::move(x));
  }
  std::map<std::string, int> launches;
  for (std::size_t kk = 0; kk < trace.kernels.size(); ++kk) {
    const TraceKernel& tk = trace.kernels[kk];
    // The kernel's records, warp after warp, each warp's in the order it made them.
    std::vector<std::uint32_t> order;
    for (std::size_t r = 0; r < trace.records.size(); ++r)
      if (trace.records[r].kernel == kk) order.push_back(static_cast<std::uint32_t>(r));
    if (order.empty()) continue;
    std::stable_sort(order.begin(), order.end(), [&trace](std::uint32_t a, std::uint32_t b) {
      const TraceRecord &x = trace.records[a], &y = trace.records[b];
      return x.block != y.block ? x.block < y.block : x.warp < y.warp;
    });
    // Steps: one per (file, line, array, op, occurrence in the warp), numbered as first seen; an
    // edge from each of a warp's steps to its next keeps every warp's order.
    std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint32_t> step_of_key;
    std::vector<std::uint32_t> first_record, step_of(order.size());
    std::unordered_set<std::uint64_t> edge_set;
    std::vector<std::vector<std::uint32_t>> next;
    std::vector<std::uint32_t> incoming;
    std::map<std::uint64_t, std::uint32_t> seen;  // this warp's occurrences of each access
    for (std::size_t i = 0; i < order.size(); ++i) {
      const TraceRecord& r = trace.records[order[i]];
      const bool new_warp =
          i == 0 || trace.records[order[i - 1]].block != r.block || trace.records[order[i - 1]].warp != r.warp;
      if (new_warp) seen.clear();
      const std::uint64_t access = std::uint64_t{r.file} << 48 | std::uint64_t{r.line} << 16 |
                                   std::uint64_t{r.array} << 8 | static_cast<std::uint64_t>(r.op);
      const std::uint32_t occurrence = seen[access]++;
      const auto [it, added] =
          step_of_key.emplace(std::make_pair(access, occurrence), static_cast<std::uint32_t>(first_record.size()));
      if (added) {
        first_record.push_back(order[i]);
        next.emplace_back();
        incoming.push_back(0);
        if (first_record.size() > kMaxSteps)
          fail("kernel " + quote(tk.name, 32), "more than " + std::to_string(kMaxSteps) + " steps (line, occurrence)");
      }
      step_of[i] = it->second;
      if (!new_warp) {
        const std::uint32_t from = step_of[i - 1], to = it->second;
        if (edge_set.insert(std::uint64_t{from} << 32 | to).second) {
          next[from].push_back(to);
          ++incoming[to];
        }
      }
    }
    // Program order: Kahn's order, the step first seen first among those ready; where warps
    // disagree (a cycle, from data-dependent control flow) the first seen of those left goes next.
    const std::size_t steps = first_record.size();
    std::vector<std::uint32_t> sequence;
    std::vector<bool> placed(steps, false);
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
    for (std::uint32_t s = 0; s < steps; ++s)
      if (incoming[s] == 0) ready.push(s);
    std::uint32_t lowest = 0;
    while (sequence.size() < steps) {
      if (ready.empty()) {
        while (placed[lowest]) ++lowest;
        incoming[lowest] = 0;
        ready.push(lowest);
      }
      const std::uint32_t s = ready.top();
      ready.pop();
      if (placed[s]) continue;
      placed[s] = true;
      sequence.push_back(s);
      for (std::uint32_t n : next[s])
        if (!placed[n] && --incoming[n] == 0) ready.push(n);
    }
    const std::uint64_t threads = std::uint64_t{tk.blocks} * tk.threads_per_block;
    std::uint64_t memory_steps = 0;
    for (std::uint32_t s : sequence) memory_steps += trace.records[first_record[s]].op != TraceOp::Barrier;
    if (memory_steps * threads > kMaxTraceTableEntries)
      fail("kernel " + quote(tk.name, 32), std::to_string(memory_steps) + " steps x " + std::to_string(threads) +
                                               " threads: more than 2^28 addresses to replay");
    KernelSpec k;
    const int launch = ++launches[tk.name];
    k.name = launch == 1 ? tk.name : tk.name + "#" + std::to_string(launch);
    k.blocks = tk.blocks;
    k.threads_per_block = tk.threads_per_block;
    k.registers = 2;
    std::vector<std::shared_ptr<ExplicitAddresses>> tables(steps);
    for (std::uint32_t s : sequence) {
      const TraceRecord& r = trace.records[first_record[s]];
      StepSpec st;
      st.name = trace_line_name(trace, r.file, r.line);
      if (r.op == TraceOp::Barrier) {
        st.kind = StepKind::Barrier;
      } else {
        st.kind = r.op == TraceOp::Read ? StepKind::Read : r.op == TraceOp::Write ? StepKind::Write : StepKind::Atomic;
        st.array = trace.arrays[r.array].name;
        st.atomic = atomic_of(r.op);
        st.access_bytes = r.size;
        tables[s] = std::make_shared<ExplicitAddresses>();
        tables[s]->index.assign(threads, ExplicitAddresses::kInactive);
        st.addresses = tables[s];
      }
      k.steps.push_back(std::move(st));
    }
    for (std::size_t i = 0; i < order.size(); ++i) {
      const TraceRecord& r = trace.records[order[i]];
      if (r.op == TraceOp::Barrier) continue;
      auto& index = tables[step_of[i]]->index;
      const std::uint64_t first = std::uint64_t{r.block} * tk.threads_per_block + std::uint64_t{r.warp} * 32;
      for (unsigned lane = 0; lane < 32; ++lane)
        if (r.mask >> lane & 1u) index[first + lane] = static_cast<std::uint32_t>(r.index(lane, trace.tables));
    }
    p.kernels.push_back(std::move(k));
  }
  if (p.kernels.empty()) fail("records", "none: the traced kernels made no access through a traced array");
  return p;
}

}  // namespace mmsim::kernels
