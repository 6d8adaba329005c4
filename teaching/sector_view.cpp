// The sector view of `mmsim access --model umm --sectors` (teaching/access.h): the warps of a UMM
// access as the GPU's global memory coalesces them. The counts are the predictor's coalescer's
// (models/gpu_memory/coalescer.h), asked here for the warp and for each thread alone, never
// recomputed: what this view teaches is what `mmsim predict` charges.
#include <algorithm>
#include <bit>
#include <sstream>

#include "io/input_error.h"
#include "models/gpu_memory/coalescer.h"
#include "teaching/access.h"
#include "teaching/svg.h"

namespace mmsim::teaching {

namespace {

constexpr std::uint64_t kLine = kL2LineBytes;
static_assert(kL2LineBytes % kSectorBytes == 0, "a line holds whole sectors");

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

WarpSectors warp_sectors(Coalescer& coalesce, const std::vector<Address>& warp, const AccessContext& context,
                         ThreadId first_thread) {
  WarpSectors v;
  const WarpRequest& request = coalesce(warp, context);
  for (const SectorTouch& t : request.sectors) {
    v.sectors.push_back({.sector = t.sector,
                         .line = t.sector * kSectorBytes / kLine,
                         .bytes_used = static_cast<std::uint32_t>(std::popcount(t.mask)),
                         .threads = {}});
    v.bytes_asked += static_cast<std::uint64_t>(std::popcount(t.mask));
  }
  v.lines.assign(request.lines.begin(), request.lines.end());
  v.transactions = request.transactions;
  v.ideal_sectors = ceil_div(v.bytes_asked, kSectorBytes);
  v.ideal_lines = ceil_div(v.bytes_asked, kLine);
  // Each thread alone through the same coalescer: the sectors its own bytes fall in.
  for (std::size_t t = 0; t < warp.size(); ++t) {
    std::vector<std::uint64_t> mine;
    if (warp[t] != kNoAddress)
      for (const SectorTouch& s : coalesce(std::span<const Address>(&warp[t], 1), context).sectors) {
        mine.push_back(s.sector);
        for (auto& touched : v.sectors)
          if (touched.sector == s.sector) touched.threads.push_back(first_thread + t);
      }
    v.thread_sectors.push_back(std::move(mine));
  }
  return v;
}

}  // namespace

void add_sectors(AccessResult& r) {
  if (r.machine.model != ModelKind::Umm)
    throw InputError(
        "--sectors: only with --model umm (sectors and lines are the global memory's; the DMM is shared memory, "
        "served in banks)");
  const std::uint32_t element = r.shape.element_bytes == 0 ? 4 : r.shape.element_bytes;
  Coalescer coalesce(r.machine.w, kSectorBytes, element);
  const AccessContext context{
      .op = r.op, .array = 0, .element_bytes = element, .vector = r.shape.vector, .atomic = r.shape.atomic};
  r.sectors.clear();
  const auto w = static_cast<ThreadId>(r.machine.w);
  for (std::size_t j = 0; j < r.warps.size(); ++j)
    r.sectors.push_back(warp_sectors(coalesce, r.warps[j], context, j * w));
}

std::string sector_svg(const AccessResult& r) {
  // One row per line touched, 128 bytes wide at `px` pixels a byte, in 4 sectors.
  constexpr double px = 5, left = 90, row = 30, gap = 14;
  constexpr std::size_t kMaxRows = 64;  // lines drawn per warp; the rest are counted
  const std::uint32_t element = r.shape.element_bytes == 0 ? 4 : r.shape.element_bytes;
  const std::uint64_t lane_bytes = static_cast<std::uint64_t>(element) * r.shape.vector;
  const double width = left + kLine * px + 20;
  std::ostringstream body;
  double y = 62;
  for (std::size_t j = 0; j < r.sectors.size(); ++j) {
    const WarpSectors& v = r.sectors[j];
    const auto count = [](std::uint64_t n, const char* one) {
      return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
    };
    const std::string head = "W(" + std::to_string(j) + "): " + count(v.sectors.size(), "sector") + " in " +
                             count(v.lines.size(), "line") + "; ideal " + count(v.ideal_sectors, "sector") + " in " +
                             count(v.ideal_lines, "line") + " (" + std::to_string(v.bytes_asked) + " bytes asked, " +
                             std::to_string(v.sectors.size() * kSectorBytes) + " moved)";
    body << "<text x=\"10\" y=\"" << svg::num(y + 14) << "\" font-size=\"13\">" << svg::escape(head) << "</text>\n";
    y += 34;  // room for the sector numbers above the first line
    std::vector<std::uint64_t> lines = v.lines;
    std::sort(lines.begin(), lines.end());
    for (std::size_t k = 0; k < std::min(lines.size(), kMaxRows); ++k) {
      const std::uint64_t line = lines[k];
      body << "<text x=\"" << svg::num(left - 8) << "\" y=\"" << svg::num(y + row * 0.65)
           << "\" font-size=\"11\" text-anchor=\"end\">line " << line << "</text>\n";
      for (std::uint64_t s = 0; s < kLine / kSectorBytes; ++s) {
        const std::uint64_t sector = line * (kLine / kSectorBytes) + s;
        const auto it = std::find_if(v.sectors.begin(), v.sectors.end(),
                                     [sector](const SectorTouched& t) { return t.sector == sector; });
        const double x = left + static_cast<double>(s * kSectorBytes) * px;
        body << "<rect x=\"" << svg::num(x) << "\" y=\"" << svg::num(y) << "\" width=\"" << svg::num(kSectorBytes * px)
             << "\" height=\"" << svg::num(row) << "\" fill=\"" << (it == v.sectors.end() ? "#f2f2f2" : "#cfe0f5")
             << "\" stroke=\"black\" stroke-width=\"1.5\"><title>sector " << sector
             << (it == v.sectors.end() ? ", not moved"
                                       : ", moved: " + std::to_string(it->bytes_used) + " of " +
                                             std::to_string(kSectorBytes) + " bytes asked")
             << "</title></rect>\n";
        body << "<text x=\"" << svg::num(x + 3) << "\" y=\"" << svg::num(y - 2)
             << "\" font-size=\"9\" fill=\"#555555\">s" << sector << "</text>\n";
      }
      // The bytes each thread asks for in this line, with its number where it fits.
      for (std::size_t t = 0; t < r.warps[j].size(); ++t) {
        const Address a = r.warps[j][t];
        if (a == kNoAddress) continue;
        const std::uint64_t first = a * element, last = first + lane_bytes - 1;
        const std::uint64_t lo = std::max(first, line * kLine), hi = std::min(last, line * kLine + kLine - 1);
        if (lo > hi) continue;
        const double x = left + static_cast<double>(lo - line * kLine) * px;
        const double wd = static_cast<double>(hi - lo + 1) * px;
        const ThreadId thread = j * static_cast<ThreadId>(r.machine.w) + t;
        body << "<rect x=\"" << svg::num(x + 0.5) << "\" y=\"" << svg::num(y + 6) << "\" width=\"" << svg::num(wd - 1)
             << "\" height=\"" << svg::num(row - 12) << "\" fill=\""
             << svg::hex(svg::hue_colour(t, static_cast<std::uint64_t>(r.machine.w), 0.55)) << "\"><title>T" << thread
             << ": m[" << a << "], bytes " << first << "-" << last << "</title></rect>";
        const std::string label = std::to_string(thread);
        if (wd >= 6.5 * static_cast<double>(label.size()) + 2)
          body << "<text x=\"" << svg::num(x + wd / 2) << "\" y=\"" << svg::num(y + row * 0.62)
               << "\" font-size=\"10\" text-anchor=\"middle\">" << label << "</text>";
        body << "\n";
      }
      y += row + gap;
    }
    if (lines.size() > kMaxRows) {
      body << "<text x=\"" << svg::num(left) << "\" y=\"" << svg::num(y + 10) << "\" font-size=\"11\">... and "
           << lines.size() - kMaxRows << " more lines</text>\n";
      y += 20;
    }
    y += 10;
  }
  std::ostringstream o;
  const std::string title =
      "the warps in 32-byte sectors and 128-byte lines (UMM, w = " + std::to_string(r.machine.w) + ")";
  const std::string sub = "byte = address x " + std::to_string(element) + "; a thread moves " +
                          std::to_string(lane_bytes) + " bytes; shaded: sectors moved; coloured: bytes asked";
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << svg::num(std::max(width, 20 + 7.2 * sub.size()))
    << "\" height=\"" << svg::num(y + 10) << "\" font-family=\"monospace\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"10\" y=\"22\" font-size=\"15\">" << svg::escape(title) << "</text>\n";
  o << "<text x=\"10\" y=\"42\" font-size=\"12\">" << svg::escape(sub) << "</text>\n";
  o << body.str() << "</svg>\n";
  return o.str();
}

}  // namespace mmsim::teaching
