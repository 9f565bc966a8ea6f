// The triangle model (BuoyancyModel::Triangles): Kerner's exact pressure
// integral over the hull's triangles, with every hydrodynamic term. Its
// substep as its stages in order (docs/model.md, "The substep"), its state,
// and its cut for drawing.
#include "hull/hull_access.hpp"
#include "substep/model.hpp"
#include "substep/plan_inline.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"
#include "substep/velocity_change.hpp"

namespace keel::KEEL_ABI::detail {
namespace {

class TriangleModel final : public ModelState {
 public:
  bool run(const BoatModel& boat, BoatState& state, const BodySnapshot& body, btScalar dt_s, double t_s) override {
    const HullSoA& soa = soaOf(boat.hull);
    if (!own_.fits(soa)) fit(boat);  // the test inline: a call only to grow
    const SubstepPlan plan = timedPlan(planTriangles, boat, state);
    Substep s(threadBuffers(soa), plan, dt_s, t_s, state.profile.get());
    // The pressure integral alone of a small hull: its heights, classes,
    // cut and sums in one kernel (heightsAboveWater). Else the stages one
    // by one; those with nothing to do this substep are not called (nor
    // timed).
    if (!findWater(boat, state, own_.water, body, s, soa, pressureAlone(plan, state)))
      return skipSubstep(state, s.flags);
    if (s.summed) {
      classifyFlags(state, s);
    } else {
      classify(boat, state, own_, s);
      if (wantsVertexVelocities(plan, state)) waterVelocityAtVertices(boat, state, own_, s);
      if (wantsWavePressure(plan, state)) wavePressureHeads(boat, state, own_, s);
      cut(boat, state, s);
    }
    pressure(boat, state, s);
    if (wantsAddedMass(plan, state)) waterInertia(boat, state, own_.water, body, s, soa);
    if (state.wakeLink) wakeSources(state, body, s, soa);  // only a boat that makes waves
    if (wantsHydrodynamics(plan, state)) {
      state.termsCleared = false;
      flowTerms(boat, state, own_, body, s);
      slamming(boat, state, own_, s);
      airResistance(boat, state, body, s);
      extraDamping(boat, state, body, s);
      clampDrag(boat, state, body, s);
    }
    if (wantsFlooding(state)) floodwater(boat, state, body, s);
    if (state.effects) {  // only for a boat that reports them: off, not even a call
      waterlineEffects(boat, state, body, s);
      effects(boat, state, body, s);
    }
    return velocityChange(boat, state, own_.water, body, s);
  }

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<TriangleModel>(*this); }
  void assign(const ModelState& from) override { own_ = static_cast<const TriangleModel&>(from).own_; }

  void fit(const BoatModel& boat) override { own_.fit(boat.hull); }

  void drawnCut(const BoatModel& boat, const BoatState& state, std::vector<SubmergedPiece>& pieces,
                std::vector<WaterlineSegment>& waterline) const override;

 private:
  void forgetHistory() override {
    own_.water.havePrevious = false;
    own_.slammingWarm = false;
  }

  TriangleState own_;
};

void TriangleModel::drawnCut(const BoatModel& boat, const BoatState& state, std::vector<SubmergedPiece>& pieces,
                             std::vector<WaterlineSegment>& waterline) const {
  pieces.clear();
  waterline.clear();
  const HullSoA& soa = soaOf(boat.hull);
  if (!state.anyWet || own_.water.above_m.size() < soa.vertexPadded) return;  // no substep yet
  BoatBuffers& b = threadBuffers(soa);
  // Classified again from the kept heights, triangle by triangle (a water
  // range that no block's box lies outside of), and cut without velocities.
  const btScalar up[3] = {0, 0, 0};
  const std::size_t crossing = classifyTriangles(soa, own_.water.above_m.data(), up, 0,
                                                 Extent{-BT_LARGE_FLOAT, BT_LARGE_FLOAT}, b);
  cutCrossing(soa, b, crossing, false, false);
  auto world = [&](btScalar x, btScalar y, btScalar z) { return state.basis * btVector3(x, y, z); };
  auto add = [&](const PieceStream& p, std::size_t i, std::uint32_t triangle) {
    const btVector3 s = world(p.sx[i], p.sy[i], p.sz[i]);
    pieces.push_back(SubmergedPiece{
        {world(p.ax[i], p.ay[i], p.az[i]), world(p.bx[i], p.by[i], p.bz[i]), world(p.cx[i], p.cy[i], p.cz[i])},
        {p.d0[i], p.d1[i], p.d2[i]},
        triangle,
        s,
        p.area[i]});
  };
  const PieceStream whole = b.triangles(soa);
  for (std::size_t t = 0; t < soa.triangleCount; ++t)
    if (whole.weight[t] > 0) add(whole, t, soa.triangle[t]);
  const PieceStream cutPieces = b.pieces.stream();
  for (std::size_t k = 0; k < crossing; ++k) {
    const std::uint32_t triangle = soa.triangle[std::size_t(b.crossing[k])];
    add(cutPieces, k, triangle);
    if (k < b.pieces.twoSlots && cutPieces.weight[b.pieces.slots + k] > 0) add(cutPieces, b.pieces.slots + k, triangle);
    const PieceBuffer& p = b.pieces;
    waterline.push_back({world(p.px[k], p.py[k], p.pz[k]), world(p.qx[k], p.qy[k], p.qz[k])});
  }
}

}  // namespace

void TriangleState::fit(const Hull& hull) {
  const HullSoA& soa = soaOf(hull);
  if (fits(soa)) return;
  water.fit(soa.vertexPadded);
  sweptRate_m3ps.assign(soa.trianglePadded, 0);
  previousSweptRate_m3ps.assign(soa.trianglePadded, 0);
  slammingWarm = false;
}

std::unique_ptr<ModelState> makeTriangleModel() { return std::make_unique<TriangleModel>(); }

}  // namespace keel::KEEL_ABI::detail
