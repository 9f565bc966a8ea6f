// Never runs: the project is refused at configure or compile time.
#include <keel/keel.hpp>

int main() { return keel::kVersionMajor; }
