DROP TABLE battles;
