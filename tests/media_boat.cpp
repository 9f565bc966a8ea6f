#include "media_boat.hpp"

#include "hull_from_file.hpp"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <stdexcept>
#include <string>

namespace keel::test {

Boat weigh(const char* file, double shell_m, double shellDensity_kgpm3, double engine_kg, const btVector3& engine_m) {
  constexpr double kRho = kSeaWaterDensity_kgpm3;
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(std::string(KEEL_MEDIA_DIR "/") + file, aiProcess_Triangulate);
  if (!scene) throw std::runtime_error(file);
  btTriangleMesh mesh;
  game::appendObject(*scene, "hull", mesh);
  Boat b;
  b.file = std::make_shared<const Hull>(mesh);
  b.draft_m = -double(b.file->boundsMin().y());
  if (shell_m == 0) {
    b.mass = massProperties(*b.file, massForDraft_kg(*b.file, b.draft_m, kRho) / double(b.file->volume_m3()));
  } else {
    MassModel model;
    model.shell(*b.file, shell_m, shellDensity_kgpm3).pointMass(engine_kg, engine_m);
    model.ballastBelow(*b.file, btVector3(0, 1, 0), -b.draft_m / 2, 0, RegionDensity::Adds);
    const double rest_kg = massForDraft_kg(*b.file, b.draft_m, kRho) - model.massMoments().zeroth;
    model.setDensity(2, rest_kg / model.parts()[2].geometry.zeroth);
    b.mass = model.properties();
  }
  b.hull = toBodyFrame(*b.file, b.mass.bodyToHull());
  return b;
}

}  // namespace keel::test
