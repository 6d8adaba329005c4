// `mmsim access`: one memory instruction of a few warps on a DMM or a UMM, explained request by
// request (bank or address group, slot, merges), with the pipeline diagram of KNI Fig. 2. The access
// is given warp by warp (--warp), as an address expression of the thread (--addr), or as a cell
// expression through a layout (--layout, --cell); teaching/posed_access.h reads them.
#include "cli/common.h"
#include "teaching/access.h"
#include "teaching/posed_access.h"

namespace mmsim::cli {

Runner add_access_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("access", "slots and time units of one warp access on a DMM or UMM, explained (KNI Fig. 2)");
  struct Opts {
    std::string model = "dmm";
    int w = 4;
    int l = 5;
    std::vector<std::string> warps;
    std::string addr, layout, cell;
    std::uint64_t threads = 0;
    std::uint64_t seed = 1;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--model", o->model, "dmm or umm")->capture_default_str();
  add_integer_option(*cmd, o->w, teaching::access_width_param());
  add_integer_option(*cmd, o->l, teaching::access_latency_param());
  auto* warp =
      cmd->add_option("--warp", o->warps,
                      "the w addresses of one warp, comma separated, _ for an inactive thread; repeat per warp")
          ->take_all()
          ->allow_extra_args(false);
  auto* addr = cmd->add_option("--addr", o->addr,
                               "address of thread t as an expression of t, i (= t mod w), j (= t / w), w, p; _ or a "
                               "negative value: inactive (e.g. 't*33', '(t%w)*w + t/w')");
  auto* cell = cmd->add_option("--cell", o->cell,
                               "cell of thread t under --layout: 'E_i, E_j' (w x w matrix) or four expressions (w^4 "
                               "array), in t, i, j, w, p (e.g. 't, t' under xor)");
  auto* layout = cmd->add_option("--layout", o->layout,
                                 "layout of the matrix for --cell: raw, ras, rap, pad, xor; "
                                 "for four coordinates raw, ras, 1p, r1p, 3p, w2p, 1pw2r");
  auto* threads =
      add_integer_option(*cmd, o->threads,
                         integer_param("threads", "--threads", "threads of an --addr or --cell access (default w)", 1,
                                       static_cast<std::int64_t>(teaching::kMaxPosedThreads)));
  ParamSpec seed_spec = seed_param();
  seed_spec.help = "seed of a random layout (as in mmsim run and mmsim layout)";
  auto* seed = add_integer_option(*cmd, o->seed, seed_spec);
  cmd->add_flag("--json", o->json, "print one JSON object");
  return [=] {
    MachineParams m;
    if (o->model == "dmm")
      m.model = ModelKind::Dmm;
    else if (o->model == "umm")
      m.model = ModelKind::Umm;
    else
      throw InputError("--model: must be dmm or umm (got '" + o->model + "')");
    m.w = o->w;
    m.l = o->l;
    if (auto err = m.validate()) throw InputError(*err);
    const int ways = (warp->count() > 0) + (addr->count() > 0) + (cell->count() > 0);
    if (ways != 1)
      throw InputError("access: give the access one way: --warp (repeated), --addr EXPR, or --layout L --cell EXPRS");
    if ((layout->count() > 0) != (cell->count() > 0)) throw InputError("--layout and --cell go together");
    if (threads->count() && warp->count())
      throw InputError("--threads: only with --addr or --cell (--warp gives the warps)");
    if (seed->count() && !layout->count()) throw InputError("--seed: only with --layout");
    const std::uint64_t p = threads->count() ? o->threads : static_cast<std::uint64_t>(m.w);
    teaching::PosedAccess posed;
    if (warp->count())
      posed = teaching::pose_warps(o->warps, m.w);
    else if (addr->count())
      posed = teaching::pose_addresses(o->addr, m.w, p);
    else
      posed = teaching::pose_cells(o->layout, o->cell, m.w, p, o->seed);
    auto result = teaching::simulate_access(m, posed.warps, posed.cells);
    result.posed = posed.posed;
    result.layout = posed.layout;
    if (o->json)
      print_json(teaching::to_json(result));
    else
      std::cout << teaching::diagram(result);
    return kOk;
  };
}

}  // namespace mmsim::cli
