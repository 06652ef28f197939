package mutex
