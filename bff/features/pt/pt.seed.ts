import type { Seeder } from '../../db/seed';

type SeedItem = [name: string, category: string, priceCents: number, description: string | null, allergens: string[], soldOut?: boolean];
interface SeedStall {
  name: string;
  cuisine: string;
  description: string;
  status?: 'open' | 'paused';
  items: SeedItem[];
}

/** A food court's worth of stalls with real-looking menus: one paused, a few items sold out. */
const STALLS: SeedStall[] = [
  {
    name: 'Ah Seng Chicken Rice',
    cuisine: 'Hainanese',
    description: 'Poached and roasted chicken over rice cooked in chicken stock, with ginger and chilli sauces.',
    items: [
      ['Steamed chicken rice', 'Rice', 650, 'Half-portion of poached chicken, fragrant rice, cucumber.', ['soy', 'sesame']],
      ['Roasted chicken rice', 'Rice', 680, 'Soy-roasted chicken with crackling skin.', ['soy', 'sesame']],
      ['Chicken rice set for two', 'Rice', 1590, 'Quarter chicken, two rice, soup and greens.', ['soy', 'sesame']],
      ['Braised egg', 'Sides', 150, null, ['egg', 'soy']],
      ['Oyster sauce kailan', 'Sides', 450, 'Blanched Chinese broccoli.', ['shellfish', 'soy']],
      ['Barley water', 'Drinks', 250, 'Homemade, lightly sweet.', ['gluten']],
    ],
  },
  {
    name: 'Nonna Lucia Pasta',
    cuisine: 'Italian',
    description: 'Fresh pasta rolled every morning and sauces slow-cooked the Roman way.',
    items: [
      ['Cacio e pepe', 'Pasta', 1150, 'Tonnarelli, pecorino romano, black pepper.', ['gluten', 'milk', 'egg']],
      ['Rigatoni all\'amatriciana', 'Pasta', 1290, 'Guanciale, tomato, pecorino.', ['gluten', 'milk']],
      ['Lasagne al forno', 'Pasta', 1390, 'Beef ragù, béchamel, parmigiano.', ['gluten', 'milk', 'egg', 'celery'], true],
      ['Burrata with tomatoes', 'Starters', 990, 'Apulian burrata, heirloom tomatoes, basil oil.', ['milk']],
      ['Tiramisù', 'Desserts', 650, null, ['gluten', 'milk', 'egg']],
      ['San Pellegrino 50 cl', 'Drinks', 300, null, []],
    ],
  },
  {
    name: 'Taquería El Güero',
    cuisine: 'Mexican',
    description: 'Corn tortillas pressed to order, slow-braised meats and salsas made in-house.',
    items: [
      ['Tacos al pastor (3)', 'Tacos', 950, 'Marinated pork, pineapple, onion, coriander.', []],
      ['Tacos de carnitas (3)', 'Tacos', 950, 'Confit pork shoulder, salsa verde.', []],
      ['Tacos de hongos (3)', 'Tacos', 890, 'Mushrooms, epazote, queso fresco.', ['milk']],
      ['Quesadilla', 'Antojitos', 780, 'Oaxaca cheese in a blue-corn tortilla.', ['milk']],
      ['Guacamole and totopos', 'Antojitos', 690, null, []],
      ['Horchata', 'Drinks', 390, 'Rice and cinnamon drink.', ['nuts'], true],
    ],
  },
  {
    name: 'Seoul Bowl',
    cuisine: 'Korean',
    description: 'Rice bowls, stews and crispy chicken from a Busan family recipe.',
    items: [
      ['Bibimbap', 'Bowls', 1090, 'Rice, seasoned vegetables, egg, gochujang.', ['egg', 'soy', 'sesame']],
      ['Bulgogi bowl', 'Bowls', 1250, 'Soy-marinated beef, rice, kimchi.', ['soy', 'sesame', 'gluten']],
      ['Kimchi jjigae', 'Stews', 1150, 'Kimchi and pork stew with tofu.', ['soy', 'fish']],
      ['Yangnyeom chicken', 'Sides', 980, 'Twice-fried chicken in sweet chilli glaze.', ['gluten', 'soy', 'sesame']],
      ['Barley tea', 'Drinks', 250, null, ['gluten']],
    ],
  },
  {
    name: 'The Green Press',
    cuisine: 'Juices & salads',
    description: 'Cold-pressed juices, grain bowls and salads.',
    status: 'paused',
    items: [
      ['Green detox juice', 'Juices', 650, 'Kale, apple, cucumber, lemon, ginger.', []],
      ['Quinoa salad', 'Salads', 990, 'Quinoa, roast squash, feta, pumpkin seeds.', ['milk']],
    ],
  },
];

export const ptSeeder: Seeder = {
  name: 'food court',
  async run(db) {
    const now = new Date().toISOString();
    for (const stall of STALLS) {
      const { id } = await db
        .insertInto('stalls')
        .values({ name: stall.name, cuisine: stall.cuisine, description: stall.description, status: stall.status ?? 'open', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('menu_items')
        .values(
          stall.items.map(([name, category, priceCents, description, allergens, soldOut]) => ({
            stall_id: id,
            name,
            category,
            price_cents: priceCents,
            description,
            allergens: JSON.stringify(allergens),
            sold_out: soldOut ? 1 : 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
  },
};
