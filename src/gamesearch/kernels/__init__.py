"""The compiled-kernel framework: bit boards, the kernel contract, specialisation and
generic compiled searches (it knows no specific game)."""
