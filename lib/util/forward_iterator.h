// What every forward iterator over a view repeats: the member types a range
// algorithm asks for and postfix ++ from prefix ++. The derived class gives
// operator*, prefix operator++ (then `using ForwardIterator::operator++;`)
// and operator==.
#pragma once

#include <cstddef>

namespace dispatchctl {

template <class Derived, class Value>
class ForwardIterator {
 public:
  using value_type = Value;
  using difference_type = std::ptrdiff_t;
  Derived operator++(int) {
    Derived was = static_cast<Derived&>(*this);
    ++static_cast<Derived&>(*this);
    return was;
  }
};

}  // namespace dispatchctl
