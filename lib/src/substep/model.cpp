// The buoyancy models' one dispatch point: an entry per BuoyancyModel.
#include "substep/model.hpp"
#include "wake/wake_link.hpp"

#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI::detail {

std::unique_ptr<ModelState> makeModelState(BuoyancyModel model) {
  switch (model) {
    case BuoyancyModel::Triangles: return makeTriangleModel();
    case BuoyancyModel::Columns: return makeColumnModel();
  }
  throw std::invalid_argument("keel: unknown buoyancy model " + std::to_string(int(model)));
}

static_assert(kBuoyancyModelCount == std::size_t(BuoyancyModel::Columns) + 1, "one entry per buoyancy model");

void ModelState::drawnCut(const BoatModel&, const BoatState&, std::vector<SubmergedPiece>& pieces,
                          std::vector<WaterlineSegment>& waterline) const {
  pieces.clear();
  waterline.clear();
}

void ModelState::debugDraw(const BoatModel&, const BoatState&, btIDebugDraw&) const {}

ModelState& BoatState::makeModelStateOf(BuoyancyModel model) {
  std::unique_ptr<ModelState>& m = models.at(std::size_t(model));
  m = makeModelState(model);
  return *m;
}

void BoatState::copyFrom(const BoatState& from) {
  static_cast<BoatValues&>(*this) = from;
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (!from.models[m])
      models[m].reset();
    else if (models[m])
      models[m]->assign(*from.models[m]);
    else
      models[m] = from.models[m]->clone();
  }
}

bool runSubstep(const BoatModel& boat, BoatState& state, const BodySnapshot& body, btScalar dt_s, double t_s) {
  if (state.profile) ++state.profile->substeps;
  if (state.wakeLink)
    state.wakeLink->sources.count = state.wakeLink->sources.triangles = 0;  // a skipped substep makes no waves
  state.memoryHint.count = 0;  // the model names its memory anew (a boat put on triangles names none)
  return state.modelState(boat.model).run(boat, state, body, dt_s, t_s);
}

void drawnCut(const BoatModel& boat, BoatState& state, std::vector<SubmergedPiece>& pieces,
              std::vector<WaterlineSegment>& waterline) {
  state.modelState(boat.model).drawnCut(boat, state, pieces, waterline);
}

}  // namespace keel::KEEL_ABI::detail
