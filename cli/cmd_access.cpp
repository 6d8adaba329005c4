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
    std::uint32_t element_bytes = 4, vector = 1;
    std::string op = "read";
    std::vector<std::string> regs;
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
  add_integer_option(*cmd, o->element_bytes, teaching::access_element_bytes_param());
  add_integer_option(*cmd, o->vector, teaching::access_vector_param());
  cmd->add_option("--op", o->op,
                  "read, write, or an atomic update: atomic-add, atomic-min, atomic-max, atomic-exch, atomic-cas, "
                  "increment (an add of 1 whose result is unused: a histogram's count)")
      ->capture_default_str();
  auto* reg = cmd->add_option("--reg", o->regs,
                              "NAME=v0,v1,...: a register each thread loaded earlier (one value per thread), named "
                              "in --addr (e.g. --reg key=5,3,3,0 --addr key); repeat for more")
                  ->allow_extra_args(false);
  cmd->add_flag("--json", o->json, "print one JSON object");
  return [=] {
    MachineParams m;
    if (o->model == "dmm")
      m.model = ModelKind::Dmm;
    else if (o->model == "umm")
      m.model = ModelKind::Umm;
    else
      throw InputError("--model: must be dmm or umm (got " + quote(o->model) + ")");
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
    if (reg->count() && !addr->count()) throw InputError("--reg: only with --addr (registers name addresses there)");
    const teaching::PosedShape shaped = teaching::pose_shape(o->element_bytes, o->vector, o->op);
    const std::uint64_t p = threads->count() ? o->threads : static_cast<std::uint64_t>(m.w);
    teaching::PosedAccess posed;
    if (warp->count())
      posed = teaching::pose_warps(o->warps, m.w);
    else if (addr->count()) {
      std::vector<teaching::RegisterValues> regs;
      for (const auto& r : o->regs) regs.push_back(teaching::parse_register(r));
      posed = teaching::pose_addresses(o->addr, m.w, p, regs);
    } else
      posed = teaching::pose_cells(o->layout, o->cell, m.w, p, o->seed);
    teaching::check_vector_alignment(posed, shaped.shape);
    auto result = teaching::simulate_access(m, posed.warps, posed.cells, shaped.shape, shaped.op);
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
