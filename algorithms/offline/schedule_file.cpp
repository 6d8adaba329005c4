#include "algorithms/offline/schedule_file.h"

#include <cstring>
#include <fstream>

#include "algorithms/params.h"
#include "io/input_error.h"
#include "io/input_file.h"
#include "io/output_file.h"

namespace mmsim::offline {

namespace {

// Little-endian encoding whatever the host's byte order.
void put(std::vector<unsigned char>& out, std::uint64_t v, int bytes) {
  for (int b = 0; b < bytes; ++b) out.push_back(static_cast<unsigned char>(v >> (8 * b)));
}

std::uint64_t get(const unsigned char* in, int bytes) {
  std::uint64_t v = 0;
  for (int b = 0; b < bytes; ++b) v |= std::uint64_t{in[b]} << (8 * b);
  return v;
}

void put_words(std::ostream& out, std::span<const Word> words) {
  std::vector<unsigned char> buf;
  buf.reserve(std::size_t{1} << 20);
  for (std::size_t i = 0; i < words.size(); ++i) {
    put(buf, words[i], 4);
    if (buf.size() >= (std::size_t{1} << 20)) {
      out.write(reinterpret_cast<const char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  }
  out.write(reinterpret_cast<const char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
}

}  // namespace

std::uint64_t hash64(std::span<const std::uint32_t> words, std::uint64_t h) {
  for (const auto x : words) h = (h ^ x) * 0x00000100000001b3ull;
  return h;
}

void write_schedule_file(const std::string& path, const ThreeStepSchedule& s, std::span<const std::uint32_t> perm) {
  const std::vector<Word>* tables[6] = {&s.step[0].s, &s.step[0].d, &s.step[1].s,
                                        &s.step[1].d, &s.step[2].s, &s.step[2].d};
  std::uint64_t payload_hash = 0xcbf29ce484222325ull;
  for (const auto* t : tables) payload_hash = hash64(*t, payload_hash);
  std::vector<unsigned char> header(kScheduleMagic, kScheduleMagic + 8);
  put(header, kScheduleVersion, 4);
  put(header, static_cast<std::uint64_t>(s.w), 4);
  put(header, s.n, 8);
  put(header, s.N, 8);
  put(header, hash64(perm), 8);
  put(header, 6 * s.n * 4, 8);
  put(header, payload_hash, 8);
  put(header, 0, 8);
  OutputFile file(path, "-o");  // whole or not at all: a reader trusts a file that has its header
  std::ostream& out = file.stream();
  out.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
  for (const auto* t : tables) put_words(out, *t);
  file.commit();
}

ThreeStepSchedule parse_schedule(std::istream& in, std::span<const std::uint32_t> perm, int w,
                                 const std::string& file) {
  const std::string where = "--schedule: " + quote(file, 60) + ": ";
  unsigned char h[kScheduleHeaderBytes];
  in.read(reinterpret_cast<char*>(h), sizeof h);
  if (in.gcount() != static_cast<std::streamsize>(sizeof h)) throw InputError(where + "truncated header");
  if (std::memcmp(h, kScheduleMagic, 8) != 0) throw InputError(where + "not a schedule file (bad magic)");
  if (get(h + 8, 4) != kScheduleVersion)
    throw InputError(where + "unsupported version " + std::to_string(get(h + 8, 4)) + " (this mmsim reads version 1)");
  const std::uint64_t file_w = get(h + 12, 4), n = get(h + 16, 8), N = get(h + 24, 8), perm_hash = get(h + 32, 8),
                      payload = get(h + 40, 8), payload_hash = get(h + 48, 8), reserved = get(h + 56, 8);
  if (n != perm.size())
    throw InputError(where + "made for n = " + std::to_string(n) + ", not n = " + std::to_string(perm.size()));
  if (file_w != static_cast<std::uint64_t>(w))
    throw InputError(where + "made for w = " + std::to_string(file_w) + ", not w = " + std::to_string(w));
  if (N == 0 || N > (std::uint64_t{1} << 16) || N * N != n || N % file_w != 0)
    throw InputError(where + "header: N is not sqrt(n) or not a multiple of w");
  if (payload != 6 * n * 4 || reserved != 0) throw InputError(where + "header: bad payload size or reserved field");
  if (perm_hash != hash64(perm)) throw InputError(where + "made for another permutation (permutation hash differs)");

  ThreeStepSchedule s;
  s.n = n;
  s.N = N;
  s.w = w;
  std::vector<Word>* tables[6] = {&s.step[0].s, &s.step[0].d, &s.step[1].s, &s.step[1].d, &s.step[2].s, &s.step[2].d};
  std::vector<unsigned char> buf(n * 4);
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (auto* t : tables) {
    in.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
    if (in.gcount() != static_cast<std::streamsize>(buf.size())) throw InputError(where + "truncated payload");
    t->resize(n);
    for (std::uint64_t i = 0; i < n; ++i) (*t)[i] = static_cast<Word>(get(buf.data() + 4 * i, 4));
    hash = hash64(*t, hash);
  }
  if (in.peek() != std::istream::traits_type::eof()) throw InputError(where + "trailing bytes after the payload");
  if (hash != payload_hash) throw InputError(where + "corrupted (payload hash differs)");
  for (auto& step : s.step) {
    step.N = N;
    step.w = w;
  }
  // Never trusted: the tables must be conflict-free permutations that compose to P.
  std::string why;
  const auto composed = composed_permutation(s, why);
  if (!composed) throw InputError(where + why);
  for (std::uint64_t x = 0; x < n; ++x)
    if ((*composed)[x] != perm[x])
      throw InputError(where + "the three steps move a[" + std::to_string(x) + "] to b[" +
                       std::to_string((*composed)[x]) + "], not to b[" + std::to_string(perm[x]) + "]");
  return s;
}

ThreeStepSchedule read_schedule_file(const std::string& path, std::span<const std::uint32_t> perm, int w) {
  // A schedule for n cells has exactly this many bytes; one more is already wrong.
  const std::uint64_t bytes = kScheduleHeaderBytes + 24 * static_cast<std::uint64_t>(perm.size());
  InputFile file("--schedule", path, bytes, "that a schedule for n = " + std::to_string(perm.size()) + " has");
  return parse_schedule(file.stream(), perm, w, path);
}

}  // namespace mmsim::offline
