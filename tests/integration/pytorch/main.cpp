int torch_kai_check();

int main() { return torch_kai_check(); }
