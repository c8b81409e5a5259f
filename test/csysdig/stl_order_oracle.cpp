// stl_order_oracle.cpp: the oracle of stl_order.sh - replays the cases of
// `test_stl_order gen` on libstdc++'s own std::unordered_map and std::sort
// and prints the orders they give, as `test_stl_order run` prints ours.
//   K <len> <hex bytes>   insert a table key (the reference's key hash)
//   T <tid> / E <tid>     insert / erase an int64 key (std::hash: identity)
//   C                     clear both maps
//   P                     print both maps in iteration order
//   S <asc> <n> <v...>    std::sort of indices 0..n-1 by v, print them
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <unordered_map>
#include <vector>

struct key_hash {	// h * 101 + byte over all bytes but the last
	size_t operator()(const std::string &k) const
	{
		size_t h = 0;
		for (size_t i = 0; i + 1 < k.size(); i++)
			h = h * 101 + (unsigned char)k[i];
		return h;
	}
};

int main()
{
	std::unordered_map<std::string, int, key_hash> keys;
	std::unordered_map<int64_t, int> tids;
	std::string op;

	while (std::cin >> op) {
		if (op == "K") {
			size_t len;
			std::string k, hex;
			std::cin >> len >> hex;
			for (size_t i = 0; i < len; i++)
				k.push_back((char)std::stoi(hex.substr(2 * i, 2), nullptr, 16));
			if (keys.find(k) == keys.end())
				keys[k] = 1;
		} else if (op == "T") {
			int64_t t;
			std::cin >> t;
			tids[t] = 1;
		} else if (op == "E") {
			int64_t t;
			std::cin >> t;
			tids.erase(t);
		} else if (op == "C") {
			keys.clear();
			tids.clear();
		} else if (op == "P") {
			printf("keys");
			for (auto &it : keys) {
				printf(" ");
				for (unsigned char c : it.first)
					printf("%02x", c);
			}
			printf("\ntids");
			for (auto &it : tids)
				printf(" %lld", (long long)it.first);
			printf("\n");
		} else if (op == "S") {
			int asc;
			size_t n;
			std::cin >> asc >> n;
			std::vector<int> v(n), idx(n);
			for (size_t i = 0; i < n; i++) {
				std::cin >> v[i];
				idx[i] = (int)i;
			}
			std::sort(idx.begin(), idx.end(), [&](int a, int b) {
				return asc ? v[a] < v[b] : v[a] > v[b];
			});
			printf("sort");
			for (int i : idx)
				printf(" %d", i);
			printf("\n");
		}
	}
	return 0;
}
