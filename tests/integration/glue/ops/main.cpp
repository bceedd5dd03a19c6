int ops_kai_check();

int main() { return ops_kai_check(); }
