/* the shared libraries are made of the static archives (see CMakeLists.txt) */
